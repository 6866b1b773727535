import { Alert, Anchor, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { GenericModal } from '../../components/GenericModal';
import { Button } from '../../components/variants';
import { connectCentralPos } from './api';
import { useRequest } from './useRequest';

/**
 * CentralPos links an account with a one-time authorization code the organisation copies from CentralPos.
 * An empty code is refused here with the same key the server uses (gateway.token_required).
 */
export function CentralPosModal({ opened, onClose, onConnected }: { opened: boolean; onClose: () => void; onConnected: () => void }) {
  const intl = useIntl();
  const [token, setToken] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const request = useRequest();

  const close = () => {
    setToken('');
    setFieldError(undefined);
    request.reset();
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    request.reset();
    const code = token.trim();
    if (!code) {
      setFieldError(intl.formatMessage({ id: 'gateway.token_required', defaultMessage: 'Ingresa el código de autorización.' }));
      return;
    }
    setFieldError(undefined);
    if (await request.run(() => connectCentralPos(code))) {
      setToken('');
      onConnected();
    }
  };

  return (
    <GenericModal
      opened={opened}
      onClose={close}
      pending={request.pending}
      title={<FormattedMessage id="gateways.centralpos.modalTitle" defaultMessage="Conectar CentralPos" />}
      subtitle={<FormattedMessage id="gateways.centralpos.modalLead" defaultMessage="Pega el código de autorización que generaste en tu panel de CentralPos (Integraciones → Nueva integración)." />}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label={<FormattedMessage id="gateways.centralpos.code" defaultMessage="Código de autorización" />}
            placeholder="CP-…"
            value={token}
            onChange={(e) => setToken(e.currentTarget.value)}
            error={fieldError}
            autoComplete="off"
            spellCheck={false}
            required
            data-autofocus
            disabled={request.pending}
          />
          {request.error && (
            <Alert color="red" variant="light" role="alert" title={<FormattedMessage id="gateways.requestError" defaultMessage="No pudimos conectar la pasarela" />}>
              {request.error}
            </Alert>
          )}
          <Group justify="space-between" wrap="wrap-reverse" gap="sm">
            <Anchor component="button" type="button" size="sm" onClick={close} disabled={request.pending}>
              <FormattedMessage id="gateways.chooseAnother" defaultMessage="Elegir otra pasarela" />
            </Anchor>
            <Button type="submit" loading={request.pending}>
              <FormattedMessage id="gateways.authorize" defaultMessage="Autorizar" />
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            <FormattedMessage id="gateways.centralpos.codeHint" defaultMessage="El código se usa una sola vez y vence a los 10 minutos." />
          </Text>
        </Stack>
      </form>
    </GenericModal>
  );
}
