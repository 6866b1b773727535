import { useState } from 'react';
import { errorText } from '../api/client';
import { showToast } from './Toasts';

/**
 * Actions on a list's rows (or a card's buttons): the key of the one that runs is `busy`, and a failure's text is kept
 * in `error` for an alert above them or, with `toast`, said in a toast.
 */
export function useRowAction({ toast = false }: { toast?: boolean } = {}) {
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const run = async (rowId: string, action: () => Promise<unknown>) => {
    setBusy(rowId);
    setError(undefined);
    try {
      await action();
    } catch (e) {
      if (toast) showToast({ type: 'fail', message: errorText(e) });
      else setError(errorText(e));
    } finally {
      setBusy(undefined);
    }
  };
  return { busy, error, run };
}
