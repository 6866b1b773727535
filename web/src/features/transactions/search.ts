import { z } from 'zod';

export const BUCKETS = ['approved', 'rejected', 'pending', 'refunded', 'charged_back'] as const;
export type Bucket = (typeof BUCKETS)[number];
export const TX_PER_PAGE = 25;

/** The transactions page's URL state: a month (YYYY-MM), an optional bucket and currency, a page. */
export const transactionsSearch = z.object({
  period: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/).optional().catch(undefined),
  status: z.enum(BUCKETS).optional().catch(undefined),
  currency: z.string().regex(/^[A-Z]{3}$/).optional().catch(undefined),
  page: z.coerce.number().int().min(1).optional().catch(undefined),
});
export type TransactionsSearch = z.infer<typeof transactionsSearch>;

export const currentPeriod = (now = new Date()) => `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;

/** The month before or after "YYYY-MM". */
export function shiftPeriod(period: string, by: number): string {
  const [y, m] = period.split('-').map(Number) as [number, number];
  const d = new Date(y, m - 1 + by, 1);
  return currentPeriod(d);
}

export function rowsQueryString(s: TransactionsSearch, period: string, perPage = 25): string {
  const p = new URLSearchParams({ period, page: String(s.page ?? 1), per_page: String(perPage) });
  if (s.status) p.set('status', s.status);
  if (s.currency) p.set('currency', s.currency);
  return p.toString();
}
