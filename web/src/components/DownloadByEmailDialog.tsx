import { Alert, Group, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { DialogActions, GenericModal } from './GenericModal';
import { Button } from './variants';

type Phase = { name: 'idle' } | { name: 'pending' } | { name: 'success' } | { name: 'failure'; message: string };

export interface DownloadByEmailDialogProps {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  /** What will be sent and where, e.g. the address the link goes to. */
  description: ReactNode;
  /** Requests the e-mail; a rejection's message is shown to the user as is. */
  onConfirm: () => Promise<void>;
}

export function DownloadByEmailDialog({ opened, onClose, title, description, onConfirm }: DownloadByEmailDialogProps) {
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  const pending = phase.name === 'pending';

  const close = () => {
    onClose();
    setPhase({ name: 'idle' });
  };
  const confirm = async () => {
    setPhase({ name: 'pending' });
    try {
      await onConfirm();
      setPhase({ name: 'success' });
    } catch (error) {
      setPhase({ name: 'failure', message: error instanceof Error ? error.message : String(error) });
    }
  };

  return (
    <GenericModal opened={opened} onClose={close} title={title} pending={pending}>
      {phase.name === 'success' ? (
        <Stack gap="md">
          <Alert color="green" variant="light" role="status">
            <FormattedMessage id="downloadByEmail.sent" defaultMessage="Te enviamos un enlace de descarga por correo electrónico." />
          </Alert>
          <Text size="sm" c="dimmed">
            <FormattedMessage id="downloadByEmail.checkSpam" defaultMessage="Si no lo ves en unos minutos, revisa tu carpeta de spam." />
          </Text>
          <Group justify="flex-end">
            <Button onClick={close}>
              <FormattedMessage id="downloadByEmail.understood" defaultMessage="Entendido" />
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="md">
          <Text size="sm">{description}</Text>
          {phase.name === 'failure' && (
            <Alert color="red" variant="light" role="alert">
              {phase.message}
            </Alert>
          )}
          <DialogActions onCancel={close} busy={pending}>
            <Button onClick={confirm} disabled={pending} loading={pending}>
              <FormattedMessage id="downloadByEmail.confirm" defaultMessage="Enviar enlace" />
            </Button>
          </DialogActions>
        </Stack>
      )}
    </GenericModal>
  );
}
