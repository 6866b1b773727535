import { Alert, Anchor, Box, Group, Button as MantineButton, Paper, Select, SimpleGrid, Stack, Text, TextInput, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ApiError } from '../../api/client';
import { Button } from '../../components/variants';
import { cancelEmailChange, changeContact, countriesQuery, sendCode, validateCellphone, validateEmail, verifyCode, type CurrentUser, type VerificationType } from './api';
import { reauthenticate } from './kratos';
import { checkCode, checkEmail, ruleMessages } from './rules';
import { StepBar } from './StepBar';
import { onboardingSteps, verificationStage } from './steps';
import { PageHeader } from '../../components/PageHeader';

/** Success and "code has been sent" notices stay for 3 s (spec §9). */
export const NOTICE_MS = 3000;

function useTimedFlag(): [boolean, () => void] {
  const [on, setOn] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return [
    on,
    () => {
      clearTimeout(timer.current);
      setOn(true);
      timer.current = setTimeout(() => setOn(false), NOTICE_MS);
    },
  ];
}

const errorText = (error: unknown, field?: string) =>
  error instanceof ApiError ? ((field && error.fields[field]) || error.message) : error instanceof Error ? error.message : String(error);

export function VerificationsPage({ user }: { user: CurrentUser }) {
  const queryClient = useQueryClient();
  const stage = verificationStage(user.verifications);
  const [success, setSuccess] = useState<VerificationType>();
  const shownStage = success ?? stage;
  const steps = onboardingSteps({ verified: shownStage === 'complete', hasGateway: false });

  const onVerified = (type: VerificationType) => {
    setSuccess(type);
    setTimeout(() => {
      setSuccess(undefined);
      void queryClient.invalidateQueries({ queryKey: ['user'] });
    }, NOTICE_MS);
  };

  return (
    <Stack gap="lg" maw={720} mx="auto">
      <StepBar steps={steps} />
      {success ? (
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <Stack align="center" ta="center" gap="xs" role="status" aria-live="polite">
            <ThemeIcon color="green" radius="xl" size={56} aria-hidden>
              <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round">
                <path d="M20 6 9 17l-5-5" />
              </svg>
            </ThemeIcon>
            <Title order={2} size="h3">
              {success === 'email' ? (
                <FormattedMessage id="verify.emailDone" defaultMessage="¡Tu e-mail quedó verificado!" />
              ) : (
                <FormattedMessage id="verify.cellphoneDone" defaultMessage="¡Tu celular quedó verificado!" />
              )}
            </Title>
          </Stack>
        </Paper>
      ) : stage === 'complete' ? (
        <WhatsNext />
      ) : (
        <ChannelCard key={stage} type={stage} user={user} onVerified={() => onVerified(stage)} />
      )}
    </Stack>
  );
}

function ChannelCard({ type, user, onVerified }: { type: VerificationType; user: CurrentUser; onVerified: () => void }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  const [verifying, setVerifying] = useState(false);
  const [sending, setSending] = useState(false);
  const [sent, flashSent] = useTimedFlag();
  const [sendError, setSendError] = useState<string>();
  const [mode, setMode] = useState<'code' | 'change' | 'add'>(type === 'cellphone' && !user.cellphone?.number ? 'add' : 'code');

  const pending = type === 'email' ? user.pending_email : undefined;
  const phoneCode = useSuspenseQuery(countriesQuery()).data.find((c) => c.identifier === user.cellphone?.country)?.phone_code;
  const target = type === 'email' ? (pending ?? user.email) : user.cellphone ? `${phoneCode ?? ''} ${user.cellphone.number}`.trim() : '';

  const resend = async () => {
    setSending(true);
    setSendError(undefined);
    try {
      await sendCode(type);
      flashSent();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'account.missing_cellphone_number') setMode('add');
      else setSendError(errorText(error));
    } finally {
      setSending(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local = checkCode(code);
    if (local) {
      setCodeError(intl.formatMessage(local));
      return;
    }
    setVerifying(true);
    setCodeError(undefined);
    try {
      const res = await verifyCode(type, code.trim());
      queryClient.setQueryData<CurrentUser>(['user'], (u) => (u ? { ...u, verifications: res?.verifications ?? u.verifications } : u));
      onVerified();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'account.missing_cellphone_number') setMode('add');
      else setCodeError(errorText(error, 'code'));
    } finally {
      setVerifying(false);
    }
  };

  const title =
    type === 'email' ? (
      <FormattedMessage id="verify.emailTitle" defaultMessage="Verifica tu e-mail" />
    ) : (
      <FormattedMessage id="verify.cellphoneTitle" defaultMessage="Verifica tu celular" />
    );

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="verify-title">
      <Stack gap="md">
        <div>
          <Text size="sm" c="dimmed" fw={600}>
            <FormattedMessage id="verify.stepOf" defaultMessage="Paso {n} de 2" values={{ n: type === 'email' ? 1 : 2 }} />
          </Text>
          <Title order={1} size="h2" id="verify-title">
            {title}
          </Title>
        </div>
        {mode === 'code' && (
          <>
            <Text>
              {pending ? (
                <FormattedMessage
                  id="verify.pendingEmailLead"
                  defaultMessage="Te enviamos un código a {target}. Hasta que lo ingreses, tu e-mail para entrar sigue siendo {current}."
                  values={{ target: <strong>{target}</strong>, current: <strong>{user.email}</strong> }}
                />
              ) : type === 'email' ? (
                <FormattedMessage id="verify.emailLead" defaultMessage="Te enviamos un código a {target}. Ingrésalo para continuar." values={{ target: <strong>{target}</strong> }} />
              ) : (
                <FormattedMessage id="verify.cellphoneLead" defaultMessage="Te enviamos un código por SMS al {target}. Ingrésalo para continuar." values={{ target: <strong>{target}</strong> }} />
              )}
            </Text>
            <form onSubmit={submit} noValidate>
              <Group align="flex-start" gap="sm" wrap="wrap">
                <TextInput
                  label={<FormattedMessage id="verify.code" defaultMessage="Código de verificación" />}
                  required
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  value={code}
                  onChange={(e) => setCode(e.currentTarget.value)}
                  error={codeError}
                  style={{ flex: '1 1 220px' }}
                  size="md"
                />
                <Box mt={{ base: 0, xs: 27 }} style={{ flex: '0 0 auto' }}>
                  <Button type="submit" loading={verifying} size="md">
                    <FormattedMessage id="verify.submit" defaultMessage="Verificar" />
                  </Button>
                </Box>
              </Group>
            </form>
            <div aria-live="polite" role="status">
              {sent && (
                <Alert color="green" variant="light" data-notice="code-sent">
                  <FormattedMessage id="verify.codeSent" defaultMessage="El código fue enviado." />
                </Alert>
              )}
            </div>
            {sendError && (
              <Alert color="red" variant="light" role="alert">
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Text size="sm">{sendError}</Text>
                  <Button variant="outline" size="sm" onClick={resend} loading={sending}>
                    <FormattedMessage id="verify.sendCode" defaultMessage="Enviar código" />
                  </Button>
                </Group>
              </Alert>
            )}
            <Group gap="lg">
              <Anchor component="button" type="button" size="sm" onClick={resend} disabled={sending}>
                <FormattedMessage id="verify.resend" defaultMessage="Reenviar código" />
              </Anchor>
              <Anchor component="button" type="button" size="sm" onClick={() => setMode('change')}>
                {type === 'email' ? (
                  <FormattedMessage id="verify.changeEmail" defaultMessage="Cambiar e-mail" />
                ) : (
                  <FormattedMessage id="verify.changeCellphone" defaultMessage="Cambiar celular" />
                )}
              </Anchor>
              {pending && (
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  onClick={async () => {
                    await cancelEmailChange().catch((e: unknown) => setSendError(errorText(e)));
                    await queryClient.invalidateQueries({ queryKey: ['user'] });
                  }}
                >
                  <FormattedMessage id="verify.keepEmail" defaultMessage="Seguir con {current}" values={{ current: user.email }} />
                </Anchor>
              )}
            </Group>
          </>
        )}
        {mode !== 'code' && (
          <ChangeContactForm
            type={type}
            user={user}
            adding={mode === 'add'}
            onCancel={mode === 'change' ? () => setMode('code') : undefined}
            onDone={(u) => {
              queryClient.setQueryData(['user'], u);
              void queryClient.invalidateQueries({ queryKey: ['user'] });
              setMode('code');
              setCode('');
              flashSent();
            }}
          />
        )}
      </Stack>
    </Paper>
  );
}

function ChangeContactForm({
  type,
  user,
  adding,
  onCancel,
  onDone,
}: {
  type: VerificationType;
  user: CurrentUser;
  adding: boolean;
  onCancel?: () => void;
  onDone: (user: CurrentUser) => void;
}) {
  const intl = useIntl();
  const [email, setEmail] = useState('');
  const [country, setCountry] = useState(user.cellphone?.country || user.organization.country || 'AR');
  const { data: countries } = useSuspenseQuery(countriesQuery());
  const [number, setNumber] = useState('');
  const [error, setError] = useState<string>();
  const [reauth, setReauth] = useState<string>();
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setReauth(undefined);
    if (type === 'email') {
      const local = checkEmail(email, user.email);
      if (local) return setError(intl.formatMessage(local));
    } else {
      if (!number.trim()) return setError(intl.formatMessage(ruleMessages.cellphoneRequired));
      if (user.cellphone && user.cellphone.country === country && user.cellphone.number.replace(/\D/g, '') === number.replace(/\D/g, ''))
        return setError(intl.formatMessage(ruleMessages.cellphoneSame));
    }
    setSaving(true);
    try {
      if (type === 'email') await validateEmail(email.trim());
      else await validateCellphone({ country, number: number.trim() });
      const updated = await changeContact(type === 'email' ? { email: email.trim() } : { cellphone: { country, number: number.trim() } });
      onDone(updated);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'session.reauth_required') setReauth(e.message);
      else setError(errorText(e, type));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text>
          {adding ? (
            <FormattedMessage id="verify.addCellphoneLead" defaultMessage="Agrega un número de celular para recibir el código por SMS." />
          ) : type === 'email' ? (
            <FormattedMessage id="verify.changeEmailLead" defaultMessage="Escribe el nuevo e-mail. Te enviaremos un código allí." />
          ) : (
            <FormattedMessage id="verify.changeCellphoneLead" defaultMessage="Escribe el nuevo número. Te enviaremos un código por SMS." />
          )}
        </Text>
        {type === 'email' ? (
          <TextInput
            label={<FormattedMessage id="verify.newEmail" defaultMessage="Nuevo e-mail" />}
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={error}
          />
        ) : (
          <Group align="flex-start" gap="sm" wrap="nowrap">
            <Select
              label={<FormattedMessage id="signup.user.phoneCode" defaultMessage="Código" />}
              data={countries.map((c) => ({ value: c.identifier, label: `${c.identifier} ${c.phone_code}` }))}
              value={country}
              allowDeselect={false}
              onChange={(v) => setCountry(v ?? country)}
              w={120}
            />
            <TextInput
              label={<FormattedMessage id="verify.newCellphone" defaultMessage="Número de celular" />}
              type="tel"
              autoComplete="tel-national"
              required
              value={number}
              onChange={(e) => setNumber(e.currentTarget.value.replace(/[^\d\s-]/g, ''))}
              error={error}
              style={{ flex: 1 }}
            />
          </Group>
        )}
        {reauth && (
          <Alert color="orange" variant="light" role="alert" data-notice="reauth">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{reauth}</Text>
              <MantineButton variant="outline" color="brand" size="sm" component="a" href={reauthenticate()}>
                <FormattedMessage id="verify.reauth" defaultMessage="Ingresar mi contraseña" />
              </MantineButton>
            </Stack>
          </Alert>
        )}
        <Group gap="sm">
          <Button type="submit" loading={saving}>
            {adding ? (
              <FormattedMessage id="verify.addAndSend" defaultMessage="Agregar y enviar código" />
            ) : (
              <FormattedMessage id="verify.change" defaultMessage="Cambiar" />
            )}
          </Button>
          {onCancel && (
            <Button type="button" variant="ghost" onClick={onCancel}>
              <FormattedMessage id="dialog.cancel" defaultMessage="Cancelar" />
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

function Choice({ to, title, body, icon }: { to: string; title: ReactNode; body: ReactNode; icon: string }) {
  return (
    <UnstyledButton component="a" href={to} style={{ display: 'block', height: '100%' }}>
      <Paper withBorder radius="lg" p="lg" h="100%" style={{ transition: 'border-color 150ms' }} className="choice-card">
        <ThemeIcon size={44} radius="md" variant="light" mb="sm" aria-hidden>
          <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <path d={icon} />
          </svg>
        </ThemeIcon>
        <Text fw={700} size="lg">
          {title}
        </Text>
        <Text c="dimmed" size="sm" mt={4}>
          {body}
        </Text>
      </Paper>
    </UnstyledButton>
  );
}

export function WhatsNext() {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="next-title">
      <Stack gap="md">
        <PageHeader
          titleId="next-title"
          title={<FormattedMessage id="verify.next.title" defaultMessage="¿Qué quieres hacer ahora?" />}
          lead={<FormattedMessage id="verify.next.lead" defaultMessage="Tu e-mail y tu celular están verificados." />}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Choice
            to="/account/onboarding/payment_gateways"
            icon="M2 7h20v12H2zM2 11h20M6 15h4"
            title={<FormattedMessage id="verify.next.gateway" defaultMessage="Configurar una pasarela de pago" />}
            body={<FormattedMessage id="verify.next.gatewayBody" defaultMessage="Conecta la cuenta donde recibirás las donaciones." />}
          />
          <Choice
            to="/manage/campaigns/choose_type"
            icon="M12 5v14M5 12h14"
            title={<FormattedMessage id="verify.next.campaign" defaultMessage="Crear mi primera campaña" />}
            body={<FormattedMessage id="verify.next.campaignBody" defaultMessage="Prepara tu formulario de donación; podrás publicarlo cuando tu cuenta esté activa." />}
          />
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
