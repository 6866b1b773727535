import { Anchor, Box, Checkbox, Group, List, Paper, PasswordInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useMemo, useState, type ChangeEvent, type FormEvent } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { ApiError } from '../../api/client';
import { Button } from '../../components/variants';
import { countriesQuery, register, validateCellphone, validateEmail, validateUid, type CountryData } from './api';
import { maskUid, readCountryCookie, uidComplete, writeCountryCookie } from './countries';
import { checkEmail, checkOrgName, checkPassword, checkPersonName, passwordRules } from './rules';
import { LoadError } from './session';
import { useServerCheck } from './useServerCheck';

const roleMessages = defineMessages({
  direction: { id: 'signup.role.direction', defaultMessage: 'Dirección' },
  fundraising: { id: 'signup.role.fundraising', defaultMessage: 'Recaudación de fondos' },
  communication: { id: 'signup.role.communication', defaultMessage: 'Comunicación y marketing' },
  administration: { id: 'signup.role.administration', defaultMessage: 'Administración y finanzas' },
  technology: { id: 'signup.role.technology', defaultMessage: 'Tecnología' },
  volunteering: { id: 'signup.role.volunteering', defaultMessage: 'Voluntariado' },
  other: { id: 'signup.role.other', defaultMessage: 'Otra' },
});
export const ROLE_AREAS = ['direction', 'fundraising', 'communication', 'administration', 'technology', 'volunteering', 'other'] as const;

const spinnerSection = (checking: boolean, ok: boolean) =>
  checking ? (
    <Text size="xs" c="dimmed" aria-hidden>
      …
    </Text>
  ) : ok ? (
    <Text c="green.8" aria-hidden fw={700}>
      ✓
    </Text>
  ) : null;

export function SignupPage() {
  // The route's loader has the countries in the cache.
  const { data } = useSuspenseQuery(countriesQuery());
  if (!data.length) return <LoadError error={null} />;
  return <SignupForm countries={data} />;
}

function SignupForm({ countries }: { countries: CountryData[] }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const [step, setStep] = useState<'organization' | 'user'>('organization');
  const offered = (code: string | null | undefined) => countries.find((c) => c.identifier === code);
  const [current] = useState(() => offered(readCountryCookie()) ?? offered('AR') ?? countries[0]!);
  const country = current.identifier;
  const [org, setOrg] = useState({ name: '', uidType: current.uid_options[0]?.type ?? '', uid: '' });
  const [user, setUser] = useState({ first: '', last: '', email: '', password: '', phoneCountry: country, phone: '', role: '', accept: false });
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitError, setSubmitError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const [continuing, setContinuing] = useState(false);
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const uidCheck = useServerCheck('uid');
  const emailCheck = useServerCheck('email');
  const phoneCheck = useServerCheck('cellphone');
  const ids = { title: useId(), pw: useId(), legal: useId() };

  const touch = (...names: string[]) => setTouched((t) => ({ ...t, ...Object.fromEntries(names.map((n) => [n, true])) }));
  const msg = (d: ReturnType<typeof checkOrgName>) => (d ? intl.formatMessage(d) : undefined);

  const orgErrors = {
    name: msg(checkOrgName(org.name)),
    uid: !org.uid.trim()
      ? intl.formatMessage({ id: 'account.rule.uidRequired', defaultMessage: 'Ingresa el número de identificación.' })
      : !uidComplete(country, org.uidType, org.uid)
        ? intl.formatMessage({ id: 'account.rule.uidIncomplete', defaultMessage: 'Completa el número con el formato indicado.' })
        : undefined,
  };
  const phoneKey = `${user.phoneCountry}:${user.phone.trim()}`;
  const userErrors = {
    first: msg(checkPersonName(user.first, 'first')),
    last: msg(checkPersonName(user.last, 'last')),
    email: msg(checkEmail(user.email)),
    password: msg(checkPassword(user.password)),
    phone: user.phone.trim() ? undefined : intl.formatMessage({ id: 'account.rule.cellphoneRequired', defaultMessage: 'Ingresa tu número de celular.' }),
    role: user.role ? undefined : intl.formatMessage({ id: 'account.rule.roleRequired', defaultMessage: 'Elige tu área en la organización.' }),
    accept: user.accept ? undefined : intl.formatMessage({ id: 'signup.acceptRequired', defaultMessage: 'Debes aceptar los términos y la política de privacidad.' }),
  };

  const shown = (name: string, local: string | undefined, server?: { status: string; message?: string; value?: string }, value?: string) => {
    if (touched[name] && local) return local;
    if (server?.status === 'error' && server.value === value) return server.message;
    return undefined;
  };

  /** A typed-in field of the person's step: its value, kept as typed; marked touched on leaving it; its error once touched. */
  const userText = (name: 'first' | 'last' | 'password') => ({
    value: user[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => setUser({ ...user, [name]: e.currentTarget.value }),
    onBlur: () => touch(name),
    error: shown(name, userErrors[name]),
  });

  const checkUid = () => {
    if (orgErrors.uid) return Promise.resolve(false);
    return uidCheck.run(org.uid, () => validateUid({ country, uid_type: org.uidType, uid: org.uid }));
  };
  const checkEmailServer = () => {
    if (userErrors.email) return Promise.resolve(false);
    const email = user.email.trim();
    return emailCheck.passedFor(email) ? Promise.resolve(true) : emailCheck.run(email, () => validateEmail(email));
  };
  const checkPhoneServer = () => {
    if (userErrors.phone) return Promise.resolve(false);
    return phoneCheck.passedFor(phoneKey)
      ? Promise.resolve(true)
      : phoneCheck.run(phoneKey, () => validateCellphone({ country: user.phoneCountry, number: user.phone.trim() }));
  };

  const continueToUser = async (event: FormEvent) => {
    event.preventDefault();
    touch('name', 'uid');
    if (orgErrors.name || orgErrors.uid || continuing) return;
    setContinuing(true);
    const passed = uidCheck.passedFor(org.uid) || (await checkUid());
    setContinuing(false);
    if (passed) {
      setStep('user');
      requestAnimationFrame(() => document.getElementById(ids.title)?.focus());
    }
  };

  const userValid = Object.values(userErrors).every((e) => !e);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    touch('first', 'last', 'email', 'password', 'phone', 'role', 'accept');
    if (!userValid || submitting) return;
    setSubmitError(undefined);
    setSubmitting(true);
    const [emailOk, phoneOk] = await Promise.all([checkEmailServer(), checkPhoneServer()]);
    if (!emailOk || !phoneOk || !uidCheck.passedFor(org.uid)) {
      setSubmitting(false);
      return;
    }
    try {
      const res = await register(
        {
          user: {
            first_name: user.first.trim(),
            last_name: user.last.trim(),
            email: user.email.trim(),
            password: user.password,
            cellphone: { country: user.phoneCountry, number: user.phone.trim() },
            organization_role_area: user.role,
          },
          organization: { name: org.name.trim(), uid: org.uid, uid_type: org.uidType, country },
        },
        idempotencyKey,
      );
      await navigate({ to: (res?.redirect_to as '/account/verifications' | undefined) ?? '/account/verifications' });
    } catch (error) {
      setSubmitError(error instanceof ApiError ? Object.values(error.fields)[0] ?? error.message : String(error));
    } finally {
      setSubmitting(false);
    }
  };

  const countryName = (c: string) => intl.formatDisplayName(c, { type: 'region' }) ?? c;
  const countryOptions = useMemo(() => countries.map((c) => ({ value: c.identifier, label: countryName(c.identifier) })), [intl, countries]);
  const phoneOptions = useMemo(() => countries.map((c) => ({ value: c.identifier, label: `${c.identifier} ${c.phone_code}` })), [countries]);
  const roleOptions = ROLE_AREAS.map((value) => ({ value, label: intl.formatMessage(roleMessages[value]) }));
  const rules = passwordRules(user.password);

  return (
    <Box maw={560} mx="auto">
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} shadow="xs">
        <Stack gap="lg">
          <div>
            <Text size="sm" c="dimmed" fw={600}>
              <FormattedMessage id="signup.stepOf" defaultMessage="Paso {n} de 2" values={{ n: step === 'organization' ? 1 : 2 }} />
            </Text>
            <Title order={1} size="h2" id={ids.title} tabIndex={-1}>
              {step === 'organization' ? (
                <FormattedMessage id="signup.org.title" defaultMessage="Registra tu organización" />
              ) : (
                <FormattedMessage id="signup.user.title" defaultMessage="Crea tu usuario" />
              )}
            </Title>
            <Text c="dimmed" size="sm" mt={4}>
              {step === 'organization' ? (
                <FormattedMessage id="signup.org.lead" defaultMessage="Empieza con los datos legales de tu organización." />
              ) : (
                <FormattedMessage id="signup.user.lead" defaultMessage="Serás la persona administradora de la cuenta." />
              )}
            </Text>
          </div>

          {step === 'organization' ? (
            <form onSubmit={continueToUser} noValidate>
              <Stack gap="md">
                <TextInput
                  label={<FormattedMessage id="signup.org.name" defaultMessage="Nombre de la organización" />}
                  required
                  autoComplete="organization"
                  value={org.name}
                  onChange={(e) => setOrg({ ...org, name: e.currentTarget.value })}
                  onBlur={() => touch('name')}
                  error={shown('name', orgErrors.name)}
                />
                <Select
                  label={<FormattedMessage id="signup.org.country" defaultMessage="País" />}
                  description={<FormattedMessage id="signup.org.countryHint" defaultMessage="Al cambiar el país se recarga la página." />}
                  required
                  allowDeselect={false}
                  data={countryOptions}
                  value={country}
                  onChange={(value) => {
                    if (value && value !== country && offered(value)) {
                      writeCountryCookie(value);
                      window.location.reload();
                    }
                  }}
                />
                <Group grow align="flex-start" gap="sm" wrap="wrap">
                  <Select
                    label={<FormattedMessage id="signup.org.uidType" defaultMessage="Tipo de identificación" />}
                    required
                    allowDeselect={false}
                    data={current.uid_options.map((o) => o.type)}
                    value={org.uidType}
                    onChange={(value) => {
                      setOrg({ ...org, uidType: value ?? '', uid: maskUid(country, value ?? '', org.uid) });
                      uidCheck.reset();
                    }}
                    style={{ flex: '1 1 140px', maxWidth: 180 }}
                  />
                  <TextInput
                    label={<FormattedMessage id="signup.org.uid" defaultMessage="Número" />}
                    required
                    inputMode={country === 'MX' || country === 'CL' ? 'text' : 'numeric'}
                    placeholder={current.uid_options.find((o) => o.type === org.uidType)?.placeholder}
                    value={org.uid}
                    onChange={(e) => {
                      setOrg({ ...org, uid: maskUid(country, org.uidType, e.currentTarget.value) });
                      uidCheck.reset();
                    }}
                    onBlur={() => {
                      touch('uid');
                      void checkUid();
                    }}
                    rightSection={spinnerSection(uidCheck.state.status === 'checking', uidCheck.passedFor(org.uid))}
                    error={shown('uid', orgErrors.uid, uidCheck.state, org.uid)}
                    style={{ flex: '2 1 220px' }}
                  />
                </Group>
                <Button type="submit" size="lg" fullWidth loading={continuing}>
                  <FormattedMessage id="signup.continue" defaultMessage="Continuar" />
                </Button>
              </Stack>
            </form>
          ) : (
            <form onSubmit={submit} noValidate>
              <Stack gap="md">
                <Group grow align="flex-start" wrap="wrap" gap="sm">
                  <TextInput
                    label={<FormattedMessage id="signup.user.first" defaultMessage="Nombre" />}
                    required
                    autoComplete="given-name"
                    {...userText('first')}
                    style={{ flex: '1 1 200px' }}
                  />
                  <TextInput
                    label={<FormattedMessage id="signup.user.last" defaultMessage="Apellido" />}
                    required
                    autoComplete="family-name"
                    {...userText('last')}
                    style={{ flex: '1 1 200px' }}
                  />
                </Group>
                <TextInput
                  label={<FormattedMessage id="signup.user.email" defaultMessage="E-mail" />}
                  required
                  type="email"
                  autoComplete="email"
                  value={user.email}
                  onChange={(e) => setUser({ ...user, email: e.currentTarget.value })}
                  onBlur={() => {
                    touch('email');
                    void checkEmailServer();
                  }}
                  rightSection={spinnerSection(emailCheck.state.status === 'checking', emailCheck.passedFor(user.email.trim()))}
                  error={shown('email', userErrors.email, emailCheck.state, user.email.trim())}
                />
                <div>
                  <PasswordInput
                    label={<FormattedMessage id="signup.user.password" defaultMessage="Contraseña" />}
                    required
                    autoComplete="new-password"
                    {...userText('password')}
                    description={<FormattedMessage id="signup.user.passwordHint" defaultMessage="Mínimo 12 caracteres, con una mayúscula y un número, sin espacios." />}
                    visibilityToggleButtonProps={{
                      'aria-label': intl.formatMessage({ id: 'signup.user.passwordToggle', defaultMessage: 'Mostrar u ocultar la contraseña' }),
                    }}
                    aria-describedby={ids.pw}
                  />
                  <List id={ids.pw} size="xs" mt={6} spacing={2} listStyleType="none" c="dimmed">
                    {(
                      [
                        ['length', <FormattedMessage key="l" id="signup.pw.length" defaultMessage="12 caracteres o más" />],
                        ['uppercase', <FormattedMessage key="u" id="signup.pw.uppercase" defaultMessage="Una letra mayúscula" />],
                        ['digit', <FormattedMessage key="d" id="signup.pw.digit" defaultMessage="Un número" />],
                        ['noSpace', <FormattedMessage key="s" id="signup.pw.noSpace" defaultMessage="Sin espacios" />],
                      ] as const
                    ).map(([key, label]) => (
                      <List.Item key={key} c={rules[key] ? 'green.8' : 'dimmed'} data-rule={key} data-ok={rules[key]}>
                        <span aria-hidden>{rules[key] ? '✓ ' : '○ '}</span>
                        {label}
                      </List.Item>
                    ))}
                  </List>
                </div>
                <Group align="flex-start" gap="sm" wrap="nowrap">
                  <Select
                    label={<FormattedMessage id="signup.user.phoneCode" defaultMessage="Código" />}
                    required
                    allowDeselect={false}
                    data={phoneOptions}
                    value={user.phoneCountry}
                    onChange={(value) => {
                      setUser({ ...user, phoneCountry: value ?? country });
                      phoneCheck.reset();
                    }}
                    w={120}
                  />
                  <TextInput
                    label={<FormattedMessage id="signup.user.phone" defaultMessage="Celular" />}
                    required
                    type="tel"
                    autoComplete="tel-national"
                    value={user.phone}
                    onChange={(e) => {
                      setUser({ ...user, phone: e.currentTarget.value.replace(/[^\d\s-]/g, '') });
                    }}
                    onBlur={() => {
                      touch('phone');
                      void checkPhoneServer();
                    }}
                    rightSection={spinnerSection(phoneCheck.state.status === 'checking', phoneCheck.passedFor(phoneKey))}
                    error={shown('phone', userErrors.phone, phoneCheck.state, phoneKey)}
                    style={{ flex: 1 }}
                  />
                </Group>
                <Select
                  label={<FormattedMessage id="signup.user.role" defaultMessage="Tu área en la organización" />}
                  required
                  data={roleOptions}
                  value={user.role || null}
                  onChange={(value) => setUser({ ...user, role: value ?? '' })}
                  onBlur={() => touch('role')}
                  error={shown('role', userErrors.role)}
                />
                <Checkbox
                  checked={user.accept}
                  onChange={(e) => setUser({ ...user, accept: e.currentTarget.checked })}
                  error={shown('accept', userErrors.accept)}
                  label={
                    <FormattedMessage
                      id="signup.user.legal"
                      defaultMessage="Acepto los <terms>términos y condiciones</terms> y la <privacy>política de privacidad</privacy>."
                      values={{
                        terms: (chunks) => (
                          <Anchor href="https://aporta.org/terminos" target="_blank" rel="noreferrer">
                            {chunks}
                          </Anchor>
                        ),
                        privacy: (chunks) => (
                          <Anchor href="https://aporta.org/privacidad" target="_blank" rel="noreferrer">
                            {chunks}
                          </Anchor>
                        ),
                      }}
                    />
                  }
                />
                {submitError && (
                  <Text role="alert" c="red.8" size="sm">
                    {submitError}
                  </Text>
                )}
                <Group justify="space-between" wrap="wrap-reverse" gap="sm">
                  <Button type="button" variant="ghost" onClick={() => setStep('organization')}>
                    <FormattedMessage id="signup.back" defaultMessage="Volver" />
                  </Button>
                  <Button type="submit" size="lg" loading={submitting}>
                    <FormattedMessage id="signup.submit" defaultMessage="Crear cuenta" />
                  </Button>
                </Group>
              </Stack>
            </form>
          )}
          <Text size="sm" ta="center">
            <FormattedMessage
              id="signup.haveAccount"
              defaultMessage="¿Ya tienes cuenta? <link>Inicia sesión</link>"
              values={{ link: (chunks) => <Anchor href={SIGN_IN_URL}>{chunks}</Anchor> }}
            />
          </Text>
        </Stack>
      </Paper>
    </Box>
  );
}

/** Kratos' browser login flow on our origin; Kratos redirects to /account/login?flow=…. */
export const SIGN_IN_URL = '/.ory/kratos/public/self-service/login/browser';
