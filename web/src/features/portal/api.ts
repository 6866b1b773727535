// The donor portal's calls (/api/public/portal): its own session cookie, set by a magic link.
import { apiFetch } from '../../api/client';
import type { CardRule } from '../../donate/lib/brand';
import type { Money } from '../../donate/lib/money';
import type { CardVault } from '../../donate/lib/tokenizer';
import type { DonationEdit } from '../donations/api';

export interface PortalCharge { date: string; period: string | null; amount: Money; status: string; decline?: string; receipt?: number }

export interface PortalDonation {
  uuid: string;
  campaign: string;
  amount: Money;
  frequency: 'monthly' | 'one_time';
  status: string;
  paused_reason?: string;
  paused_label?: string;
  resume_on?: string;
  collect_day: number | null;
  collect_last_day: boolean;
  next_charge_date: string | null;
  card: { brand: string; last_four: string; expiry: string } | null;
  charges: PortalCharge[];
  actions: string[];
  limits?: { min: Money; max: Money };
  gateway?: { name: string; tokenizer_url: string; public_key: string; payment_methods: CardRule[]; vault?: CardVault | null };
}

const base = '/api/public/portal';
const one = (uuid: string) => `${base}/donations/${encodeURIComponent(uuid)}`;

export const portal = {
  requestLink: (slug: string, email: string) => apiFetch<{ status: string }>(`${base}/links`, { method: 'POST', body: { slug, email } }),
  open: (token: string) => apiFetch<{ organization: string; first_name: string }>(`${base}/session`, { method: 'POST', body: { token } }),
  close: () => apiFetch<unknown>(`${base}/session`, { method: 'DELETE' }),
  list: () => apiFetch<{ donations: PortalDonation[] }>(`${base}/donations`),
  get: (uuid: string) => apiFetch<PortalDonation>(one(uuid)),
  edit: (uuid: string, edit: DonationEdit) => apiFetch<PortalDonation>(one(uuid), { method: 'PATCH', body: edit }),
  card: (uuid: string, body: unknown) => apiFetch<PortalDonation>(`${one(uuid)}/payment_method`, { method: 'POST', body }),
  pause: (uuid: string, months: number) => apiFetch<PortalDonation>(`${one(uuid)}/pause`, { method: 'POST', body: { months } }),
  resume: (uuid: string) => apiFetch<PortalDonation>(`${one(uuid)}/resume`, { method: 'POST', body: {} }),
  cancel: (uuid: string, reason: string) => apiFetch<PortalDonation>(`${one(uuid)}/cancel`, { method: 'POST', body: { reason } }),
  /** PDF downloads: a receipt of the donor's, their summary of a year. */
  receiptUrl: (n: number) => `${base}/receipts/${n}`,
  summaryUrl: (year: number) => `${base}/summaries/${year}`,
};

/** The cancel reasons the portal offers (the manage area's discard reasons, api/donation DiscardReasons). */
export const CANCEL_REASONS = ['donor_request', 'financial_reasons', 'payment_problems', 'other'] as const;
