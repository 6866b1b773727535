import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError, apiFetch } from './client';

const readiness = z.object({
  status: z.enum(['ok', 'degraded']),
  // Only staff and probes on the server's machine get the checks; everyone else gets the status alone.
  checks: z.array(z.object({ name: z.string(), ok: z.boolean(), error: z.string().default('') })).default([]),
});
export type Readiness = z.infer<typeof readiness>;

async function fetchReadiness(signal: AbortSignal): Promise<Readiness> {
  try {
    return readiness.parse(await apiFetch<unknown>('/readyz', { signal }));
  } catch (error) {
    // A degraded stack answers 503 with the same body, which is exactly what the card should show.
    const degraded = error instanceof ApiError ? readiness.safeParse(error.body) : undefined;
    if (degraded?.success) return degraded.data;
    throw error;
  }
}

export const readinessQuery = () =>
  queryOptions({
    queryKey: ['readyz'],
    queryFn: ({ signal }) => fetchReadiness(signal),
    refetchInterval: 30_000,
    retry: false,
  });
