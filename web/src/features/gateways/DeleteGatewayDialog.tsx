import { Alert, Stack, Text } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { DialogActions, GenericModal } from '../../components/GenericModal';
import { Button } from '../../components/variants';
import { useRequest } from './useRequest';

/** Confirms the irreversible removal of a connection; a failure keeps the dialog open with the server's message. */
export function DeleteGatewayDialog({ name, opened, onClose, onConfirm }: { name: string; opened: boolean; onClose: () => void; onConfirm: () => Promise<void> }) {
  const request = useRequest();

  const close = () => {
    request.reset();
    onClose();
  };

  const confirm = async () => {
    if (await request.run(onConfirm)) close();
  };

  return (
    <GenericModal
      opened={opened}
      onClose={close}
      pending={request.pending}
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
        {request.error && (
          <Text role="alert" c="red.8" size="sm">
            {request.error}
          </Text>
        )}
        <DialogActions onCancel={close} busy={request.pending}>
          <Button variant="destructive" onClick={confirm} loading={request.pending}>
            <FormattedMessage id="gateways.delete" defaultMessage="Eliminar" />
          </Button>
        </DialogActions>
      </Stack>
    </GenericModal>
  );
}
