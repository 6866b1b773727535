import { Alert, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { GenericModal } from '../../components/GenericModal';
import { Button } from '../../components/variants';

/** Confirms the irreversible removal of a connection; a failure keeps the dialog open with the server's message. */
export function DeleteGatewayDialog({ name, opened, onClose, onConfirm }: { name: string; opened: boolean; onClose: () => void; onConfirm: () => Promise<void> }) {
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string>();

  const close = () => {
    setError(undefined);
    onClose();
  };

  const confirm = async () => {
    setSubmitting(true);
    setError(undefined);
    try {
      await onConfirm();
      close();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <GenericModal
      opened={opened}
      onClose={close}
      pending={submitting}
      title={<FormattedMessage id="gateways.delete.title" defaultMessage="¿Eliminar {gateway}?" values={{ gateway: name }} />}
    >
      <Stack gap="md">
        <Alert color="red" variant="light" role="note">
          <FormattedMessage
            id="gateways.delete.irreversible"
            defaultMessage="Esta acción es irreversible: desconectamos tu cuenta de {gateway} y tus campañas dejan de recibir donaciones hasta que conectes una pasarela. Las donaciones mensuales quedan en espera hasta entonces."
            values={{ gateway: name }}
          />
        </Alert>
        {error && (
          <Text role="alert" c="red.8" size="sm">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="ghost" onClick={close} disabled={submitting}>
            <FormattedMessage id="dialog.cancel" defaultMessage="Cancelar" />
          </Button>
          <Button variant="destructive" onClick={confirm} loading={submitting}>
            <FormattedMessage id="gateways.delete" defaultMessage="Eliminar" />
          </Button>
        </Group>
      </Stack>
    </GenericModal>
  );
}
