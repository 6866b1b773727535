import { Alert, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { DialogActions, GenericModal } from '../../../components/GenericModal';
import { Button } from '../../../components/variants';
import type { BankAccount, BankAccountForm as Form, BankParams } from './api';
import { BankAccountForm, initialValues } from './BankAccountForm';

/** Asks before unsaved changes are thrown away; Keep editing is the safe default. */
export function ConfirmDiscardChanges({ opened, onKeep, onDiscard }: { opened: boolean; onKeep: () => void; onDiscard: () => void }) {
  const intl = useIntl();
  return (
    <Modal
      opened={opened}
      onClose={onKeep}
      centered
      size="sm"
      zIndex={400}
      title={<Text fw={700}>{intl.formatMessage({ id: 'bankAccount.discard.title', defaultMessage: '¿Descartar los cambios?' })}</Text>}
      closeButtonProps={{ 'aria-label': intl.formatMessage({ id: 'modal.close', defaultMessage: 'Cerrar' }) }}
    >
      <Stack gap="md">
        <Text size="sm">
          <FormattedMessage id="bankAccount.discard.body" defaultMessage="Lo que escribiste no se guardó y se perderá." />
        </Text>
        <Group justify="flex-end" wrap="wrap-reverse">
          <Button variant="ghost" onClick={onKeep} data-autofocus>
            <FormattedMessage id="bankAccount.discard.keep" defaultMessage="Seguir editando" />
          </Button>
          <Button variant="destructive" onClick={onDiscard}>
            <FormattedMessage id="bankAccount.discard.confirm" defaultMessage="Descartar" />
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Whether the form holds something the user typed and has not saved. */
export const isDirty = (values: Form, account?: BankAccount) => JSON.stringify(values) !== JSON.stringify(initialValues(account));

/**
 * The bank account edit (or first add) modal of the gateways page (spec §2): the form, a warning that payouts follow
 * the account, and a confirmation before closing over unsaved changes.
 */
export function BankAccountModal({ opened, onClose, account, params, onSaved }: {
  opened: boolean;
  onClose: () => void;
  account?: BankAccount;
  params: BankParams;
  onSaved: (account: BankAccount) => void;
}) {
  const [values, setValues] = useState<Form>(() => initialValues(account));
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (opened) setValues(initialValues(account));
  }, [opened, account]);

  const close = () => {
    setConfirming(false);
    onClose();
  };
  // The question opens once the Escape that asked has finished propagating: opened during it, the new dialog's own
  // Escape listener would take the same key press and close it at once.
  const requestClose = () => (isDirty(values, account) ? window.setTimeout(() => setConfirming(true)) : close());

  return (
    <>
      <GenericModal
        opened={opened}
        onClose={requestClose}
        pending={pending}
        size="lg"
        title={
          account ? (
            <FormattedMessage id="bankAccount.editTitle" defaultMessage="Editar cuenta bancaria" />
          ) : (
            <FormattedMessage id="bankAccount.addTitle" defaultMessage="Agregar cuenta bancaria" />
          )
        }
      >
        <Stack gap="md">
          <Alert color="yellow" variant="light" role="note">
            <FormattedMessage
              id="bankAccount.warning"
              defaultMessage="Transferimos lo recaudado con pagos integrados a esta cuenta. Revisa que el titular sea tu organización: un cambio vale para las próximas transferencias."
            />
          </Alert>
          <BankAccountForm
            params={params}
            account={account}
            values={values}
            onChange={setValues}
            onSaved={(saved) => {
              onSaved(saved);
              close();
            }}
            onPendingChange={setPending}
            actions={(busy) => (
              <DialogActions onCancel={requestClose} busy={busy} wrapReverse>
                <Button type="submit" loading={busy}>
                  <FormattedMessage id="bankAccount.save" defaultMessage="Guardar cuenta" />
                </Button>
              </DialogActions>
            )}
          />
        </Stack>
      </GenericModal>
      <ConfirmDiscardChanges opened={confirming} onKeep={() => setConfirming(false)} onDiscard={close} />
    </>
  );
}
