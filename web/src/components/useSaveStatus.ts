import { useCallback, useEffect, useRef, useState } from 'react';

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'error';

const SAVE_STATUS_HIDE_MS = 5000;
/** The banner fades out between hide and clear, so the text does not change while it is still visible. */
const SAVE_STATUS_CLEAR_MS = 5250;

/** Tracks one save at a time for the SaveStatusBanner: saving → saved | error, then hides and clears. */
export function useSaveStatus() {
  const [status, setStatus] = useState<SaveStatus>('idle');
  const [visible, setVisible] = useState(false);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  const clearTimers = useCallback(() => {
    timers.current.forEach(clearTimeout);
    timers.current = [];
  }, []);
  useEffect(() => clearTimers, [clearTimers]);

  const settle = useCallback((outcome: 'saved' | 'error') => {
    setStatus(outcome);
    timers.current = [
      setTimeout(() => setVisible(false), SAVE_STATUS_HIDE_MS),
      setTimeout(() => setStatus('idle'), SAVE_STATUS_CLEAR_MS),
    ];
  }, []);

  /** Runs the save; resolves to its result, or undefined when it failed (the banner reports the failure). */
  const track = useCallback(
    async <T>(save: () => Promise<T>): Promise<T | undefined> => {
      clearTimers();
      setStatus('saving');
      setVisible(true);
      try {
        const result = await save();
        settle('saved');
        return result;
      } catch {
        settle('error');
        return undefined;
      }
    },
    [clearTimers, settle],
  );

  return { status, visible, track };
}
