import { Alert, Radio, Stack } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { DialogActions, GenericModal } from './GenericModal';
import { Button } from './variants';

export interface DiscardDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Localised reasons to choose from. */
  reasons: string[];
  onConfirm: (reason: string) => Promise<void>;
}

/** Picks the localised default reason when the caller offers it, otherwise the first one. */
export function defaultReason(reasons: string[], localisedDefault: string): string | undefined {
  return reasons.includes(localisedDefault) ? localisedDefault : reasons[0];
}

export function DiscardDialog({ opened, onClose, reasons, onConfirm }: DiscardDialogProps) {
  const intl = useIntl();
  const localisedDefault = intl.formatMessage({ id: 'discard.defaultReason', defaultMessage: 'El donante pidió dejar de donar' });
  // Derived rather than stored, so a new reasons list or language never leaves a stale choice selected.
  const [picked, setPicked] = useState<string>();
  const reason = picked !== undefined && reasons.includes(picked) ? picked : defaultReason(reasons, localisedDefault);
  const [submitting, setSubmitting] = useState(false);
  const [failed, setFailed] = useState(false);

  const close = () => {
    setPicked(undefined);
    setFailed(false);
    onClose();
  };

  const submit = async () => {
    if (reason === undefined) return;
    setSubmitting(true);
    setFailed(false);
    try {
      await onConfirm(reason);
      close();
    } catch {
      setFailed(true);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <GenericModal
      opened={opened}
      onClose={close}
      pending={submitting}
      title={<FormattedMessage id="discard.title" defaultMessage="Descartar donación" />}
    >
      <Stack gap="md">
        <Alert color="red" variant="light" role="note">
          <FormattedMessage id="discard.irreversible" defaultMessage="Esta acción es irreversible: la donación dejará de cobrarse." />
        </Alert>
        <Radio.Group
          value={reason ?? null}
          onChange={setPicked}
          label={<FormattedMessage id="discard.reasonLabel" defaultMessage="Motivo" />}
        >
          <Stack gap="xs" mt="xs">
            {reasons.map((option) => (
              <Radio key={option} value={option} label={option} disabled={submitting} />
            ))}
          </Stack>
        </Radio.Group>
        {failed && (
          <Alert color="red" variant="light" role="alert">
            <FormattedMessage id="discard.failed" defaultMessage="No se pudo descartar la donación. Inténtalo de nuevo." />
          </Alert>
        )}
        <DialogActions onCancel={close} busy={submitting}>
          <Button variant="destructive" onClick={submit} loading={submitting} disabled={reason === undefined}>
            <FormattedMessage id="discard.confirm" defaultMessage="Descartar" />
          </Button>
        </DialogActions>
      </Stack>
    </GenericModal>
  );
}
