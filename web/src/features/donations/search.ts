import { z } from 'zod';

export const DONATION_STATUSES = ['active', 'paused', 'discarded', 'pending', 'rejected'] as const;
export const SORT_KEYS = ['created_at', 'amount', 'status', 'donor_name'] as const;
export const PER_PAGE = 20;
/** The list's order when the URL names none (newest first). */
export const DEFAULT_SORT = '-created_at';

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
  agency: z.string().regex(uuidRe).optional().catch(undefined),
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
  p.set('sort', s.sort ?? DEFAULT_SORT);
  for (const k of ['status', 'campaign', 'agency', 'frequency', 'from', 'to'] as const) if (s[k]) p.set(k, s[k]!);
  if (s.q?.trim()) p.set('q', s.q.trim());
  return p.toString();
}
