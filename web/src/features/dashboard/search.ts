import { z } from 'zod';

const ymd = /^\d{4}-\d{2}-\d{2}$/;
const uuidRe = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The dashboard's URL state (period, campaign, frequency, agency); malformed values fall back to the defaults. */
export const dashboardSearch = z.object({
  from: z.string().regex(ymd).optional().catch(undefined),
  to: z.string().regex(ymd).optional().catch(undefined),
  campaign: z.string().regex(uuidRe).optional().catch(undefined),
  frequency: z.enum(['monthly', 'one_time']).optional().catch(undefined),
  agency: z.string().regex(uuidRe).optional().catch(undefined),
});
export type DashboardSearch = z.infer<typeof dashboardSearch>;

export const PRESETS = ['7', '30', '90', '365'] as const;
export type Preset = (typeof PRESETS)[number];

const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The last N days, today included, in the browser's calendar. */
export function presetRange(days: number, today = new Date()): { from: string; to: string } {
  const from = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1));
  return { from: iso(from), to: iso(today) };
}

/** Which preset the URL's range is, 'custom' for another range; no range is the server's default (30 days). */
export function activePreset(s: DashboardSearch, today = new Date()): Preset | 'custom' {
  if (!s.from && !s.to) return '30';
  for (const p of PRESETS) {
    const r = presetRange(Number(p), today);
    if (r.from === s.from && r.to === s.to) return p;
  }
  return 'custom';
}

export function dashboardQueryString(s: DashboardSearch): string {
  const p = new URLSearchParams();
  for (const k of ['from', 'to', 'campaign', 'frequency', 'agency'] as const) if (s[k]) p.set(k, s[k]!);
  return p.toString();
}

/** 0.0312 → "3,1 %" in the reader's locale; null (no visits) → "—". */
export function formatConversion(value: number | null | undefined, locale: string): string {
  if (value === null || value === undefined) return '—';
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(value);
}
