import { Anchor, Box, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { FlowMessages, KratosForm } from './KratosForm';
import { browserStart, fetchFlow, flowIsGone, logoutUrl, type FlowKind, type KratosNode } from './kratos';

export function AuthCard({ title, lead, children }: { title: ReactNode; lead?: ReactNode; children: ReactNode }) {
  return (
    <Box maw={440} mx="auto" mt={{ base: 0, sm: 'xl' }}>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} shadow="xs">
        <Stack gap="lg">
          <div>
            <Title order={1} size="h2">
              {title}
            </Title>
            {lead && (
              <Text c="dimmed" size="sm" mt={4}>
                {lead}
              </Text>
            )}
          </div>
          {children}
        </Stack>
      </Paper>
    </Box>
  );
}

export function Loading() {
  const intl = useIntl();
  return (
    <Center py="xl" role="status" aria-label={intl.formatMessage({ id: 'common.loading', defaultMessage: 'Cargando…' })}>
      <Loader />
    </Center>
  );
}

/** Loads a Kratos flow by ?flow=; without one (or with a stale one) starts a fresh flow. */
function useFlow(kind: FlowKind, flowId: string | undefined) {
  const query = useQuery({
    queryKey: ['kratos', kind, flowId],
    queryFn: () => fetchFlow(kind, flowId!),
    enabled: !!flowId,
    retry: false,
    staleTime: 0,
  });
  const restart = !flowId || (query.isError && flowIsGone(query.error));
  useEffect(() => {
    if (restart) window.location.assign(browserStart(kind));
  }, [restart, kind]);
  return query;
}

/**
 * A Kratos flow's part of an auth card: its messages (less those in `hide`), its form and the links under
 * it once it has loaded; until then a loader, or the error that stopped it.
 */
function FlowBody({ query, groups, submitLabel, hide = [], footer }: {
  query: ReturnType<typeof useFlow>;
  groups: string[];
  submitLabel: (node: KratosNode) => ReactNode;
  hide?: number[];
  footer: ReactNode;
}) {
  const { data: flow, isError, error } = query;
  if (flow)
    return (
      <>
        <FlowMessages messages={(flow.ui.messages ?? []).filter((msg) => !hide.includes(msg.id))} />
        <KratosForm flow={flow} groups={groups} submitLabel={submitLabel} />
        {footer}
      </>
    );
  if (isError && !flowIsGone(error))
    return (
      <Text role="alert" c="red.8">
        {error.message}
      </Text>
    );
  return <Loading />;
}

/** Kratos's info messages the page's own lead already says (second factor asked, password asked again). */
const SAID_BY_LEAD = [1010003, 1010004];

/** The login card's texts for each kind of login flow: a first login, a second factor, a password asked again. */
const LOGIN_TEXTS: Record<'login' | 'secondFactor' | 'refresh', { title: ReactNode; lead: ReactNode; submit: ReactNode }> = {
  login: {
    title: <FormattedMessage id="login.title" defaultMessage="Iniciar sesión" />,
    lead: <FormattedMessage id="login.lead" defaultMessage="Entra a la cuenta de tu organización." />,
    submit: <FormattedMessage id="login.submit" defaultMessage="Entrar" />,
  },
  secondFactor: {
    title: <FormattedMessage id="login.secondFactor.title" defaultMessage="Verificación en dos pasos" />,
    lead: <FormattedMessage id="login.secondFactor.lead" defaultMessage="Ingresa el código de 6 dígitos que muestra tu app de autenticación." />,
    submit: <FormattedMessage id="login.secondFactor.submit" defaultMessage="Verificar" />,
  },
  refresh: {
    title: <FormattedMessage id="login.refresh.title" defaultMessage="Confirma que eres tú" />,
    lead: <FormattedMessage id="login.refresh.lead" defaultMessage="Por seguridad, vuelve a ingresar tu contraseña para continuar." />,
    submit: <FormattedMessage id="login.refresh.submit" defaultMessage="Confirmar" />,
  },
};

export function LoginPage({ flowId }: { flowId?: string }) {
  const query = useFlow('login', flowId);
  const flow = query.data;
  const secondFactor = flow?.requested_aal === 'aal2';
  const refresh = !!flow?.refresh && !secondFactor;
  const text = LOGIN_TEXTS[secondFactor ? 'secondFactor' : refresh ? 'refresh' : 'login'];
  return (
    <AuthCard title={text.title} lead={text.lead}>
      <FlowBody
        query={query}
        hide={SAID_BY_LEAD}
        groups={secondFactor ? ['totp'] : ['password']}
        submitLabel={() => text.submit}
        footer={
          secondFactor || refresh ? (
            <Anchor component={Link} to="/account/logout" size="sm" ta="center">
              <FormattedMessage id="login.otherAccount" defaultMessage="Salir y entrar con otra cuenta" />
            </Anchor>
          ) : (
            <Stack gap={4} align="center">
              <Anchor component={Link} to="/account/recovery" size="sm">
                <FormattedMessage id="login.forgot" defaultMessage="¿Olvidaste tu contraseña?" />
              </Anchor>
              <Text size="sm">
                <FormattedMessage
                  id="login.noAccount"
                  defaultMessage="¿Tu organización aún no está en Aporta? <link>Regístrala</link>"
                  values={{ link: (chunks) => <Anchor component={Link} to="/signup">{chunks}</Anchor> }}
                />
              </Text>
            </Stack>
          )
        }
      />
    </AuthCard>
  );
}

export function RecoveryPage({ flowId }: { flowId?: string }) {
  const query = useFlow('recovery', flowId);
  const flow = query.data;
  const label = (node: KratosNode) =>
    node.attributes.name === 'email' && flow?.state === 'sent_email' ? (
      <FormattedMessage id="recovery.resend" defaultMessage="Enviar otro código" />
    ) : flow?.state === 'sent_email' ? (
      <FormattedMessage id="recovery.verify" defaultMessage="Continuar" />
    ) : (
      <FormattedMessage id="recovery.send" defaultMessage="Enviar código" />
    );
  return (
    <AuthCard
      title={<FormattedMessage id="recovery.title" defaultMessage="Recuperar la contraseña" />}
      lead={
        flow?.state === 'sent_email' ? (
          <FormattedMessage id="recovery.leadCode" defaultMessage="Ingresa el código que te enviamos por e-mail." />
        ) : (
          <FormattedMessage id="recovery.lead" defaultMessage="Te enviaremos un código por e-mail para que elijas una contraseña nueva." />
        )
      }
    >
      <FlowBody
        query={query}
        groups={['code']}
        submitLabel={label}
        footer={
          <Anchor component={Link} to="/account/login" size="sm" ta="center">
            <FormattedMessage id="recovery.backToLogin" defaultMessage="Volver a iniciar sesión" />
          </Anchor>
        }
      />
    </AuthCard>
  );
}

/** Kratos' settings flow, where recovery lands: choose a new password. */
export function SettingsPage({ flowId }: { flowId?: string }) {
  const query = useFlow('settings', flowId);
  return (
    <AuthCard title={<FormattedMessage id="settingsFlow.title" defaultMessage="Elige una contraseña nueva" />}
      lead={<FormattedMessage id="signup.user.passwordHint" defaultMessage="Mínimo 12 caracteres, con una mayúscula y un número, sin espacios." />}>
      <FlowBody
        query={query}
        groups={['password']}
        submitLabel={() => <FormattedMessage id="settingsFlow.submit" defaultMessage="Guardar contraseña" />}
        footer={
          <Anchor component={Link} to="/manage/dashboard" size="sm" ta="center">
            <FormattedMessage id="settingsFlow.toDashboard" defaultMessage="Ir al panel" />
          </Anchor>
        }
      />
    </AuthCard>
  );
}

export function LogoutPage() {
  const intl = useIntl();
  useEffect(() => {
    let cancelled = false;
    logoutUrl()
      .then((url) => {
        if (!cancelled) window.location.assign(url ?? '/account/login');
      })
      .catch(() => {
        if (!cancelled) window.location.assign('/account/login');
      });
    return () => {
      cancelled = true;
    };
  }, []);
  return (
    <AuthCard title={<FormattedMessage id="logout.title" defaultMessage="Cerrando sesión…" />}>
      <Center role="status" aria-label={intl.formatMessage({ id: 'logout.title', defaultMessage: 'Cerrando sesión…' })}>
        <Loader />
      </Center>
    </AuthCard>
  );
}
