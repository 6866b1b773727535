import { Alert, Anchor, Box, Code, Group, Image, List, Button as LinkButton, Stack, Text, TextInput } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ApiError, apiFetch } from '../../api/client';
import { Button } from '../../components/variants';
import { AuthCard, Loading } from './AuthPages';
import { useKratosText } from './KratosForm';
import { csrfOf, KRATOS, reauthenticate, secondFactorLogin, SETTINGS_BROWSER, type KratosFlow } from './kratos';
import { useRedirectOnSignedOut } from './session';

/** The Kratos error id of an answer (a 403 says why: a second factor or a fresh password is due). */
const kratosErrorId = (error: unknown) =>
  error instanceof ApiError ? ((error.body as { error?: { id?: string } } | undefined)?.error?.id ?? '') : '';

/** Sends the browser where Kratos wants it first: the authenticator code, or the password again. */
function kratosDetour(error: unknown) {
  const id = kratosErrorId(error);
  if (id === 'session_aal2_required') window.location.assign(secondFactorLogin());
  else if (id === 'session_refresh_required') window.location.assign(reauthenticate());
  else return false;
  return true;
}

/**
 * Sets up an authenticator app (TOTP) through Kratos's settings flow: the QR code and its key, then a
 * first code to prove the app works. Kratos then raises the session to the second factor (AAL2),
 * which the staff console requires.
 */
export function TwoFactorPage({ returnTo }: { returnTo: string }) {
  const intl = useIntl();
  const kratosText = useKratosText();
  const clipboard = useClipboard({ timeout: 3000 });
  const start = useQuery({
    queryKey: ['kratos', 'settings', 'totp'],
    queryFn: () => apiFetch<KratosFlow>(SETTINGS_BROWSER),
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
  useRedirectOnSignedOut(start.error);
  const detour = start.isError && kratosDetour(start.error);
  const [flow, setFlow] = useState<KratosFlow>();
  useEffect(() => setFlow(start.data), [start.data]);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  const node = (name: string) => flow?.ui.nodes.find((n) => n.attributes.name === name || n.attributes.id === name);
  const qr = node('totp_qr')?.attributes.src;
  const secret = node('totp_secret_key')?.attributes.text?.text;
  const enrolled = !!node('totp_unlink');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!flow) return;
    if (!/^\d{6}$/.test(code.trim())) {
      setError(intl.formatMessage({ id: 'twoFactor.codeFormat', defaultMessage: 'Ingresa los 6 dígitos que muestra la app.' }));
      return;
    }
    setSaving(true);
    setError(undefined);
    try {
      await apiFetch<KratosFlow>(`${KRATOS}/self-service/settings?flow=${encodeURIComponent(flow.id)}`, {
        method: 'POST',
        body: { method: 'totp', totp_code: code.trim(), csrf_token: csrfOf(flow) },
      });
      window.location.assign(returnTo);
    } catch (e) {
      if (kratosDetour(e)) return;
      const answered = e instanceof ApiError && e.status === 400 ? (e.body as KratosFlow | undefined) : undefined;
      const message = answered?.ui.nodes.flatMap((n) => n.messages ?? []).find((msg) => msg.type === 'error') ?? answered?.ui.messages?.find((msg) => msg.type === 'error');
      if (answered?.ui) setFlow(answered);
      setError(message ? kratosText(message) : e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <AuthCard
      title={<FormattedMessage id="twoFactor.title" defaultMessage="Configura la verificación en dos pasos" />}
      lead={
        <FormattedMessage
          id="twoFactor.lead"
          defaultMessage="Además de tu contraseña, entrarás con un código que cambia cada 30 segundos en una app de autenticación (Google Authenticator, Microsoft Authenticator, 1Password…)."
        />
      }
    >
      {enrolled ? (
        <Stack gap="md">
          <Alert color="green" variant="light" role="status">
            <FormattedMessage id="twoFactor.enrolled" defaultMessage="Tu app de autenticación ya está configurada." />
          </Alert>
          <LinkButton component="a" color="brand" href={returnTo}>
            <FormattedMessage id="twoFactor.continue" defaultMessage="Continuar" />
          </LinkButton>
        </Stack>
      ) : flow && qr && secret ? (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <List type="ordered" spacing="md">
              <List.Item>
                <Text>
                  <FormattedMessage id="twoFactor.scan" defaultMessage="Escanea este código QR con la app." />
                </Text>
                <Image src={qr} w={192} h={192} mt="xs" alt={intl.formatMessage({ id: 'twoFactor.qrAlt', defaultMessage: 'Código QR para agregar Aporta a tu app de autenticación' })} />
              </List.Item>
              <List.Item>
                <Text>
                  <FormattedMessage id="twoFactor.key" defaultMessage="¿No puedes escanearlo? Escribe esta clave en la app:" />
                </Text>
                <Group gap="xs" mt="xs" wrap="nowrap">
                  <Code data-totp-secret style={{ wordBreak: 'break-all', fontSize: 'var(--mantine-font-size-sm)' }}>
                    {secret}
                  </Code>
                  <Box style={{ flexShrink: 0 }}>
                    <Button variant={clipboard.copied ? 'secondary' : 'outline'} size="sm" onClick={() => clipboard.copy(secret)} aria-live="polite">
                      {clipboard.copied ? <FormattedMessage id="twoFactor.copied" defaultMessage="¡Copiada!" /> : <FormattedMessage id="twoFactor.copy" defaultMessage="Copiar" />}
                    </Button>
                  </Box>
                </Group>
              </List.Item>
              <List.Item>
                <TextInput
                  label={<FormattedMessage id="twoFactor.code" defaultMessage="Código de 6 dígitos de la app" />}
                  required
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  maxLength={6}
                  value={code}
                  onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
                  error={error}
                />
              </List.Item>
            </List>
            <Button type="submit" size="lg" fullWidth loading={saving}>
              <FormattedMessage id="twoFactor.submit" defaultMessage="Activar" />
            </Button>
            <Anchor href="/account/logout" size="sm" ta="center">
              <FormattedMessage id="login.otherAccount" defaultMessage="Salir y entrar con otra cuenta" />
            </Anchor>
          </Stack>
        </form>
      ) : start.isError && !detour ? (
        <Text role="alert" c="red.8">
          {start.error.message}
        </Text>
      ) : (
        <Loading />
      )}
    </AuthCard>
  );
}
