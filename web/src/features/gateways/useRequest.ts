import { useState } from 'react';

/**
 * The one request a gateway modal sends: whether it is pending (the modal cannot be closed meanwhile) and why it
 * failed, in the server's words (already in the reader's language).
 */
export function useRequest() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  /** Resolves true when the request succeeded. */
  const run = async (request: () => Promise<unknown>) => {
    setPending(true);
    setError(undefined);
    try {
      await request();
      return true;
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return false;
    } finally {
      setPending(false);
    }
  };
  return { pending, error, run, reset: () => setError(undefined) };
}
