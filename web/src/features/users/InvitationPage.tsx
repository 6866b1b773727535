import { Alert, Anchor, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { fieldErrors } from '../../api/client';
import { Button } from '../../components/variants';
import { AuthCard, Loading } from '../accounts/AuthPages';
import { loginAndReturn, logoutUrl, sessionEmail } from '../accounts/kratos';
import { checkPassword, checkPersonName } from '../accounts/rules';
import { acceptAsNew, acceptSignedIn, invitationQuery, type ReceivedInvitation } from './api';
import { roleNames } from './UsersPage';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** /account/invitation?token=…: the page an invitation e-mail links to. */
export function InvitationPage({ token }: { token: string }) {
  const { data: invitation, error } = useQuery({ ...invitationQuery(token), enabled: !!token });
  const session = useQuery({ queryKey: ['session-email'], queryFn: sessionEmail, retry: false, staleTime: 0 });
  return (
    <AuthCard
      title={<FormattedMessage id="invitation.title" defaultMessage="Invitación a Aporta" />}
      lead={invitation && <Lead invitation={invitation} />}
    >
      {!token || error ? (
        <Stack gap="md">
          <Alert color="red" role="alert">
            {token ? errorText(error) : <FormattedMessage id="invitation.noToken" defaultMessage="Este enlace de invitación está incompleto. Ábrelo de nuevo desde el e-mail." />}
          </Alert>
          <Anchor component={Link} to="/account/login" size="sm" ta="center">
            <FormattedMessage id="recovery.backToLogin" defaultMessage="Volver a iniciar sesión" />
          </Anchor>
        </Stack>
      ) : !invitation || session.isPending ? (
        <Loading />
      ) : invitation.account === 'new' ? (
        <NewAccount token={token} invitation={invitation} />
      ) : (
        <ExistingAccount token={token} invitation={invitation} signedInAs={session.data} />
      )}
    </AuthCard>
  );
}

function Lead({ invitation }: { invitation: ReceivedInvitation }) {
  const intl = useIntl();
  const role = roleNames[invitation.role as keyof typeof roleNames];
  const values = {
    org: <strong>{invitation.organization_name}</strong>,
    inviter: invitation.invited_by,
    role: role ? intl.formatMessage(role) : invitation.role,
    email: invitation.email,
  };
  return invitation.invited_by ? (
    <FormattedMessage id="invitation.lead" defaultMessage="{inviter} te invitó a {org} con el rol {role}, en {email}." values={values} />
  ) : (
    <FormattedMessage id="invitation.leadNoInviter" defaultMessage="Te invitaron a {org} con el rol {role}, en {email}." values={values} />
  );
}

/** No verified account for the address yet: the link proves the address; choose name and password. */
function NewAccount({ token, invitation }: { token: string; invitation: ReceivedInvitation }) {
  const intl = useIntl();
  const [form, setForm] = useState({ first_name: invitation.first_name, last_name: invitation.last_name, password: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof typeof form | 'form', string>>>({});
  const [saving, setSaving] = useState(false);
  const set = (field: keyof typeof form) => (e: { currentTarget: { value: string } }) => {
    const { value } = e.currentTarget;
    setForm((prev) => ({ ...prev, [field]: value }));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local = {
      first_name: checkPersonName(form.first_name, 'first'),
      last_name: checkPersonName(form.last_name, 'last'),
      password: checkPassword(form.password),
    };
    const shown = Object.fromEntries(Object.entries(local).filter(([, m]) => m).map(([k, m]) => [k, intl.formatMessage(m!)]));
    setErrors(shown);
    if (Object.keys(shown).length > 0) return;
    setSaving(true);
    try {
      const res = await acceptAsNew({ token, first_name: form.first_name.trim(), last_name: form.last_name.trim(), password: form.password });
      window.location.assign(res.redirect_to);
    } catch (e) {
      setErrors(fieldErrors(e, 'form'));
      setSaving(false);
    }
  };
  const toggle = { 'aria-label': intl.formatMessage({ id: 'signup.user.passwordToggle', defaultMessage: 'Mostrar u ocultar la contraseña' }) };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">
          <FormattedMessage id="invitation.newLead" defaultMessage="Elige tu nombre y una contraseña para entrar con {email}." values={{ email: <strong>{invitation.email}</strong> }} />
        </Text>
        {errors.form && (
          <Alert color="red" role="alert">
            {errors.form}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput label={<FormattedMessage id="signup.user.first" defaultMessage="Nombre" />} required autoComplete="given-name" value={form.first_name} onChange={set('first_name')} error={errors.first_name} />
          <TextInput label={<FormattedMessage id="signup.user.last" defaultMessage="Apellido" />} required autoComplete="family-name" value={form.last_name} onChange={set('last_name')} error={errors.last_name} />
        </SimpleGrid>
        <TextInput label={<FormattedMessage id="signup.user.email" defaultMessage="E-mail" />} value={invitation.email} readOnly disabled autoComplete="username" />
        <PasswordInput
          label={<FormattedMessage id="signup.user.password" defaultMessage="Contraseña" />}
          description={<FormattedMessage id="signup.user.passwordHint" defaultMessage="Mínimo 12 caracteres, con una mayúscula y un número, sin espacios." />}
          required
          autoComplete="new-password"
          value={form.password}
          onChange={set('password')}
          error={errors.password}
          visibilityToggleButtonProps={toggle}
        />
        <Button type="submit" size="lg" fullWidth loading={saving}>
          <FormattedMessage id="invitation.accept" defaultMessage="Aceptar la invitación" />
        </Button>
      </Stack>
    </form>
  );
}

/** The address has an account: its owner signs in (and comes back here) to accept. */
function ExistingAccount({ token, invitation, signedInAs }: { token: string; invitation: ReceivedInvitation; signedInAs?: string }) {
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const accept = async () => {
    setSaving(true);
    try {
      window.location.assign((await acceptSignedIn(token)).redirect_to);
    } catch (e) {
      setError(errorText(e));
      setSaving(false);
    }
  };
  const switchAccount = async () => {
    setSaving(true);
    window.location.assign((await logoutUrl(window.location.href).catch(() => undefined)) ?? loginAndReturn());
  };
  const email = <strong>{invitation.email}</strong>;
  const mine = signedInAs?.toLowerCase() === invitation.email;
  return (
    <Stack gap="md">
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {mine ? (
        <Button size="lg" fullWidth loading={saving} onClick={accept}>
          <FormattedMessage id="invitation.accept" defaultMessage="Aceptar la invitación" />
        </Button>
      ) : signedInAs ? (
        <>
          <Text size="sm">
            <FormattedMessage
              id="invitation.otherAccount"
              defaultMessage="Iniciaste sesión como {current}. La invitación es para {email}: cierra la sesión y entra con esa cuenta."
              values={{ current: <strong>{signedInAs}</strong>, email }}
            />
          </Text>
          <Button size="lg" fullWidth loading={saving} onClick={switchAccount}>
            <FormattedMessage id="invitation.switchAccount" defaultMessage="Cerrar sesión y entrar con otra cuenta" />
          </Button>
        </>
      ) : (
        <>
          <Text size="sm">
            <FormattedMessage id="invitation.signInLead" defaultMessage="Ya tienes una cuenta con {email}. Inicia sesión para aceptar la invitación." values={{ email }} />
          </Text>
          <Button size="lg" fullWidth onClick={() => window.location.assign(loginAndReturn())}>
            <FormattedMessage id="invitation.signIn" defaultMessage="Iniciar sesión para aceptar" />
          </Button>
        </>
      )}
    </Stack>
  );
}
