import { useState, type FormEvent } from 'react';
import { ApiError, errorText } from '../api/client';

/**
 * A form sent to the API: `pending` while it is sent, the server's message for each input (`fieldError`), and the
 * text of a failure no input explains (`formError`, for an alert above the form).
 */
export function useApiForm(send: () => Promise<unknown>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>();
  const fields = error instanceof ApiError ? error.fields : {};
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setPending(true);
    setError(undefined);
    try {
      await send();
    } catch (err) {
      setError(err);
    } finally {
      setPending(false);
    }
  };
  return {
    pending,
    onSubmit,
    fieldError: (name: string): string | undefined => fields[name],
    formError: error !== undefined && Object.keys(fields).length === 0 ? errorText(error) : undefined,
  };
}
