import { Alert, Stack } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { DialogActions, GenericModal } from './GenericModal';
import { Button } from './variants';

/**
 * A modal holding one small form with Cancel and `confirm` at its foot. `submit` answers true to close the
 * modal, false to keep it open (the caller shows its field errors); anything it throws stays on screen.
 * The form does no browser validation: the caller's checks and the server's speak the user's language.
 */
export function FormModal({ opened, onClose, title, subtitle, children, submit, confirm, destructive }: {
  opened: boolean; onClose: () => void; title: ReactNode; subtitle?: ReactNode; children: ReactNode;
  submit: () => Promise<boolean>; confirm: ReactNode; destructive?: boolean;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => { setError(null); onClose(); };
  const go = async () => {
    setPending(true);
    setError(null);
    try {
      if (await submit()) close();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setPending(false);
    }
  };
  return (
    <GenericModal opened={opened} onClose={close} title={title} subtitle={subtitle} pending={pending}>
      <form onSubmit={(e) => { e.preventDefault(); void go(); }} noValidate>
        <Stack gap="md">
          {children}
          {error && <Alert color="red" variant="light" role="alert">{error}</Alert>}
          <DialogActions onCancel={close} busy={pending}>
            <Button type="submit" variant={destructive ? 'destructive' : 'primary'} loading={pending}>{confirm}</Button>
          </DialogActions>
        </Stack>
      </form>
    </GenericModal>
  );
}
