import { useNavigate, useSearch } from '@tanstack/react-router';
import type { Outcome } from './api';

/** The page's ?connected= / ?error=, and the way to drop them from the address once they have been read. */
export function useOutcome(): { outcome: Outcome; onOutcomeRead: () => void } {
  const { connected, error } = useSearch({ strict: false }) as Outcome;
  const navigate = useNavigate();
  return {
    outcome: { connected, error },
    onOutcomeRead: () => void navigate({ to: '.', search: (prev: Record<string, unknown>) => ({ ...prev, connected: undefined, error: undefined }), replace: true }),
  };
}
