import { useCallback, useRef, useState } from 'react';
import { ApiError } from '../../api/client';

export type CheckStatus = 'idle' | 'checking' | 'ok' | 'error';
export interface ServerCheck {
  status: CheckStatus;
  /** The server's message when it refused the value. */
  message?: string;
  /** The value the status belongs to: a check passes only for the value it was run on. */
  value?: string;
}

/** Runs a server-side check (validate/email, cellphone, uid); the newest call wins. */
export function useServerCheck(field: string) {
  const [state, setState] = useState<ServerCheck>({ status: 'idle' });
  const seq = useRef(0);
  const run = useCallback(
    async (value: string, call: () => Promise<unknown>) => {
      const n = ++seq.current;
      setState({ status: 'checking', value });
      try {
        await call();
        if (n === seq.current) setState({ status: 'ok', value });
        return true;
      } catch (error) {
        if (n !== seq.current) return false;
        const message = error instanceof ApiError ? (error.fields[field] ?? error.message) : String(error);
        setState({ status: 'error', value, message });
        return false;
      }
    },
    [field],
  );
  const reset = useCallback(() => {
    seq.current++;
    setState({ status: 'idle' });
  }, []);
  return { state, run, reset, passedFor: (value: string) => state.status === 'ok' && state.value === value };
}
