import { Alert, PasswordInput, Stack, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../components/variants';
import type { KratosFlow, KratosMessage, KratosNode } from './kratos';

const m = defineMessages({
  identifier: { id: 'auth.field.email', defaultMessage: 'E-mail' },
  password: { id: 'auth.field.password', defaultMessage: 'Contraseña' },
  code: { id: 'auth.field.code', defaultMessage: 'Código' },
  totpCode: { id: 'auth.field.totpCode', defaultMessage: 'Código de la app de autenticación' },
  totpInvalid: { id: 'auth.msg.totpInvalid', defaultMessage: 'El código no es correcto. Revisa la hora de tu teléfono y usa el código que se ve ahora en la app.' },
  invalidCredentials: { id: 'auth.msg.invalidCredentials', defaultMessage: 'El e-mail o la contraseña no son correctos.' },
  codeSent: { id: 'auth.msg.codeSent', defaultMessage: 'Si el e-mail está registrado, te enviamos un código para recuperar tu cuenta.' },
  codeInvalid: { id: 'auth.msg.codeInvalid', defaultMessage: 'El código no es correcto o expiró.' },
  passwordSaved: { id: 'auth.msg.passwordSaved', defaultMessage: 'Tu contraseña se guardó.' },
  passwordWeak: { id: 'auth.msg.passwordWeak', defaultMessage: 'La contraseña es demasiado débil o apareció en una filtración. Elige otra.' },
  flowExpired: { id: 'auth.msg.flowExpired', defaultMessage: 'El formulario expiró. Inténtalo de nuevo.' },
});

/** Kratos message ids we word ourselves, so the page reads in the visitor's language. */
const KNOWN: Record<number, keyof typeof m> = {
  4000006: 'invalidCredentials',
  4000008: 'totpInvalid',
  1060003: 'codeSent',
  4060006: 'codeInvalid',
  4060004: 'codeInvalid',
  1050001: 'passwordSaved',
  4000005: 'passwordWeak',
  4000034: 'passwordWeak',
  4010001: 'flowExpired',
  4060005: 'flowExpired',
};

export function useKratosText() {
  const intl = useIntl();
  return (message: KratosMessage) => {
    const key = KNOWN[message.id];
    return key ? intl.formatMessage(m[key]) : message.text;
  };
}

/** Seconds to wait when our Kratos proxy sent a throttled form post back here (?throttled=N). */
function throttledFor() {
  const seconds = Number(new URLSearchParams(window.location.search).get('throttled'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

export function FlowMessages({ messages }: { messages: KratosMessage[] }) {
  const text = useKratosText();
  const throttled = throttledFor();
  if (messages.length === 0 && !throttled) return null;
  return (
    <Stack gap="xs">
      {throttled > 0 && (
        <Alert color="red" role="alert" variant="light">
          {throttled < 3600 ? (
            <FormattedMessage
              id="auth.msg.throttled"
              defaultMessage="Demasiados intentos. Vuelve a intentarlo en {minutes, plural, one {# minuto} other {# minutos}}."
              values={{ minutes: Math.ceil(throttled / 60) }}
            />
          ) : (
            <FormattedMessage id="auth.msg.throttledLong" defaultMessage="Demasiados intentos. Vuelve a intentarlo más tarde." />
          )}
        </Alert>
      )}
      {messages.map((msg) => (
        <Alert key={`${msg.id}-${msg.text}`} color={msg.type === 'error' ? 'red' : msg.type === 'success' ? 'green' : 'blue'} role={msg.type === 'error' ? 'alert' : 'status'} variant="light">
          {text(msg)}
        </Alert>
      ))}
    </Stack>
  );
}

/**
 * Renders a Kratos browser flow as a native form posted to the flow's action: Kratos answers with
 * redirects (back to this page with the flow's errors, or on to the next page), so no script is
 * needed to drive it. Only the groups listed are shown.
 */
export function KratosForm({ flow, groups, submitLabel }: { flow: KratosFlow; groups: string[]; submitLabel: (node: KratosNode) => ReactNode }) {
  const intl = useIntl();
  const nodes = flow.ui.nodes.filter((n) => n.type === 'input' && (n.group === 'default' || groups.includes(n.group)));
  const label = (name: string) =>
    name === 'identifier' || name === 'email' || name === 'traits.email'
      ? intl.formatMessage(m.identifier)
      : name === 'code'
        ? intl.formatMessage(m.code)
        : name === 'totp_code'
          ? intl.formatMessage(m.totpCode)
          : intl.formatMessage(m.password);
  const oneTimeCode = (name: string) => name === 'code' || name === 'totp_code';
  return (
    <form action={flow.ui.action} method={flow.ui.method} noValidate={false}>
      <Stack gap="md">
        {nodes.map((node, i) => {
          const a = node.attributes;
          const name = a.name ?? '';
          const value = typeof a.value === 'string' ? a.value : undefined;
          const error = node.messages.find((x) => x.type === 'error');
          const errorText = error ? (KNOWN[error.id] ? intl.formatMessage(m[KNOWN[error.id]!]) : error.text) : undefined;
          switch (a.type) {
            case 'hidden':
              return <input key={`${name}-${i}`} type="hidden" name={name} value={value ?? ''} />;
            case 'submit':
            case 'button':
              return (
                <Button key={`${name}-${i}`} type="submit" name={name} value={value ?? ''} size="lg" fullWidth variant={name === 'resend' || name === 'email' ? 'outline' : 'primary'}>
                  {submitLabel(node)}
                </Button>
              );
            case 'password':
              return (
                <PasswordInput
                  key={`${name}-${i}`}
                  name={name}
                  label={label(name)}
                  required={a.required}
                  autoComplete={a.autocomplete ?? 'current-password'}
                  error={errorText}
                  visibilityToggleButtonProps={{ 'aria-label': intl.formatMessage({ id: 'signup.user.passwordToggle', defaultMessage: 'Mostrar u ocultar la contraseña' }) }}
                />
              );
            default:
              return (
                <TextInput
                  key={`${name}-${i}`}
                  name={name}
                  type={a.type === 'email' ? 'email' : 'text'}
                  label={label(name)}
                  required={a.required}
                  defaultValue={value}
                  autoComplete={a.autocomplete ?? (oneTimeCode(name) ? 'one-time-code' : 'email')}
                  inputMode={oneTimeCode(name) ? 'numeric' : undefined}
                  error={errorText}
                />
              );
          }
        })}
      </Stack>
    </form>
  );
}
