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

/**
 * Runs a server-side check (validate/email, cellphone, uid); the newest call wins. A call for the value
 * already being checked joins that check: leaving a field and pressing the form's button at once
 * (the blur starts the check, the press needs its answer) is one request with one answer.
 */
export function useServerCheck(field: string) {
  const [state, setState] = useState<ServerCheck>({ status: 'idle' });
  const seq = useRef(0);
  const inFlight = useRef<{ n: number; value: string; result: Promise<boolean> }>(undefined);
  const run = useCallback(
    (value: string, call: () => Promise<unknown>) => {
      const current = inFlight.current;
      if (current && current.n === seq.current && current.value === value) return current.result;
      const n = ++seq.current;
      setState({ status: 'checking', value });
      const result = Promise.resolve()
        .then(call)
        .then(
          () => {
            if (n === seq.current) setState({ status: 'ok', value });
            return true;
          },
          (error: unknown) => {
            if (n !== seq.current) return false;
            const message = error instanceof ApiError ? (error.fields[field] ?? error.message) : String(error);
            setState({ status: 'error', value, message });
            return false;
          },
        )
        .finally(() => {
          if (inFlight.current?.n === n) inFlight.current = undefined;
        });
      inFlight.current = { n, value, result };
      return result;
    },
    [field],
  );
  const reset = useCallback(() => {
    seq.current++;
    inFlight.current = undefined;
    setState({ status: 'idle' });
  }, []);
  return { state, run, reset, passedFor: (value: string) => state.status === 'ok' && state.value === value };
}
