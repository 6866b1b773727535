import { z } from 'zod';

export const DONATION_STATUSES = ['active', 'paused', 'discarded', 'pending', 'rejected'] as const;
export const SORT_KEYS = ['created_at', 'amount', 'status', 'donor_name'] as const;
export const PER_PAGE = 20;

const ymd = /^\d{4}-\d{2}-\d{2}$/;
const uuidRe = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The donations list's URL state: anything malformed falls back to its default instead of failing. */
export const donationsSearch = z.object({
  page: z.coerce.number().int().min(1).optional().catch(undefined),
  sort: z
    .string()
    .regex(new RegExp(`^-?(${SORT_KEYS.join('|')})$`))
    .optional()
    .catch(undefined),
  status: z.enum(DONATION_STATUSES).optional().catch(undefined),
  campaign: z.string().regex(uuidRe).optional().catch(undefined),
  frequency: z.enum(['monthly', 'one_time']).optional().catch(undefined),
  from: z.string().regex(ymd).optional().catch(undefined),
  to: z.string().regex(ymd).optional().catch(undefined),
  q: z.string().max(120).optional().catch(undefined),
});
export type DonationsSearch = z.infer<typeof donationsSearch>;

/** The API query string for the list (and, without page, for the CSV). */
export function donationsQueryString(s: DonationsSearch, withPage = true): string {
  const p = new URLSearchParams();
  if (withPage) {
    p.set('page', String(s.page ?? 1));
    p.set('per_page', String(PER_PAGE));
  }
  p.set('sort', s.sort ?? '-created_at');
  for (const k of ['status', 'campaign', 'frequency', 'from', 'to'] as const) if (s[k]) p.set(k, s[k]!);
  if (s.q?.trim()) p.set('q', s.q.trim());
  return p.toString();
}

/** TanStack Table sorting state from "-amount" and back. */
export function parseSort(sort: string | undefined): { id: string; desc: boolean } {
  const s = sort ?? '-created_at';
  return s.startsWith('-') ? { id: s.slice(1), desc: true } : { id: s, desc: false };
}
export function formatSort(id: string, desc: boolean): string | undefined {
  const v = `${desc ? '-' : ''}${id}`;
  return v === '-created_at' ? undefined : v;
}

/** Next sort when a header is clicked: a new column starts descending, the same column flips. */
export function toggleSort(current: string | undefined, id: string): string | undefined {
  const cur = parseSort(current);
  return formatSort(id, cur.id === id ? !cur.desc : true);
}
