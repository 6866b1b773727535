import type { Tokenizer } from './card';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import type { Money } from '../../donate/lib/money';

export interface CampaignRef { uuid: string; title: string }

export interface DonationListItem {
  uuid: string;
  amount: Money;
  frequency: 'monthly' | 'one_time';
  recurrence: number;
  collect_day: number | null;
  status: string;
  paused_reason: string | null;
  paused_since: string | null;
  discarded_at: string | null;
  discard_reason: string | null;
  next_charge_date: string | null;
  created_at: string;
  campaign: CampaignRef;
  donor: { uuid: string; first_name: string; last_name: string; email: string; uid_type: string; uid_number: string };
  payment_method: { brand: string; last_four: string } | null;
}
export interface DonationList { donations: DonationListItem[]; total: number; page: number; per_page: number }

export interface Donor {
  uuid: string; first_name: string; last_name: string; email: string; phone: string; cellphone: string; uid_type: string;
  uid_number: string; street: string; city: string; state: string; country: string; zipcode: string; gender: string;
  created_at: string; discarded: boolean; discarded_at: string | null; discard_reason: string;
}
/** What a public form submission said of its donor: the donor's record only changes in the manage area. */
export type SubmittedDonor = Pick<Donor, 'first_name' | 'last_name' | 'email' | 'uid_type' | 'uid_number'>
  & Partial<Pick<Donor, 'phone' | 'cellphone' | 'street' | 'city' | 'state' | 'zipcode' | 'gender'>>;
export interface PaymentMethod {
  uuid: string; brand: string; bin: string; last_four: string; expiry_month: number; expiry_year: number; expiry: string; holder_name: string;
}
export interface Transaction {
  uuid: string; amount: Money; date: string; status: string; status_detail: string; period: string | null; attempt: number;
  payment_id: string; payment_method: { brand: string; last_four: string } | null;
}
export interface Upgrade {
  id: string; percentage: string; period: number; old_amount: Money; new_amount: Money; next_date: string; auto: boolean;
  removed_at: string | null; created_at: string;
}
export interface UpgradeApplied { upgrade_id: string; applied_on: string; old_amount: Money; new_amount: Money }
export type DonationAction =
  | 'pause' | 'restore' | 'discard' | 'collect_payment' | 'change_amount' | 'change_payment_method' | 'upgrade' | 'edit_donor';

export interface DonationDetail {
  donation: {
    uuid: string; amount: Money; campaign: CampaignRef; recurrence: number; frequency: 'monthly' | 'one_time';
    collect_day: number | null; collect_last_day: boolean; status: string; paused_reason: string | null; paused_since: string | null;
    discarded_at: string | null; discard_reason: string | null; next_charge_date: string | null; upgrade_opt_in: boolean;
    instalments: number; created_at: string; updated_at: string; actions: DonationAction[];
    /** Answers to the campaign's extra form fields, as the donor saw each field. */
    form_values: FormValue[];
    /** The donor's data as the public form submitted it with this donation; null when not kept. */
    submitted_donor: SubmittedDonor | null;
  };
  donor: Donor;
  payment_method: PaymentMethod | null;
  transactions: Transaction[];
  upgrade: Upgrade | null;
  upgrades: Upgrade[];
  upgrade_history: UpgradeApplied[];
  versions_count: number;
  gateway: Tokenizer;
  collect?: { period: string; status: string; approved: boolean; payment_id?: string; attempts?: number };
}

export interface FormValue { order: number; type: string; title: string; label: string; value: string }
export interface Version { uuid: string; actor: string; actor_type: string; field: string; before: unknown; after: unknown; at: string }
export interface Reason { code: string; label: string }
export interface Reasons { pause_reasons: Reason[]; discard_reasons: Reason[]; default_pause_reason: string; default_discard_reason: string }

export const donationsQuery = (qs: string) =>
  queryOptions({
    queryKey: ['donations', 'list', qs],
    queryFn: ({ signal }) => apiFetch<DonationList>(`/manage/api/donations?${qs}`, { signal }),
    placeholderData: (prev) => prev,
    retry: false,
  });

export const donationQuery = (uuid: string) =>
  queryOptions({
    queryKey: ['donations', 'detail', uuid],
    queryFn: ({ signal }) => apiFetch<DonationDetail>(`/manage/api/donations/${uuid}`, { signal }),
    retry: false,
  });

export const versionsQuery = (uuid: string, count: number) =>
  queryOptions({
    queryKey: ['donations', 'versions', uuid, count],
    queryFn: ({ signal }) => apiFetch<{ versions: Version[]; total: number }>(`/manage/api/donations/${uuid}/versions?per_page=50`, { signal }),
    retry: false,
  });

export const supportQuery = (uuid: string) =>
  queryOptions({
    queryKey: ['donations', 'support', uuid],
    queryFn: ({ signal }) => apiFetch<Record<string, unknown>>(`/manage/api/donations/${uuid}/support`, { signal }),
    retry: false,
  });

export const reasonsQuery = (locale: string) =>
  queryOptions({
    queryKey: ['donation_reasons', locale],
    queryFn: ({ signal }) => apiFetch<Reasons>(`/manage/api/donation_reasons?locale=${locale}`, { signal }),
    staleTime: Infinity,
  });

/** PATCH /manage/api/donations/{uuid}: the fields that change; collect_day null is the last day of the month. */
export interface DonationEdit { amount?: string; collect_day?: number | null }

const base = (uuid: string) => `/manage/api/donations/${uuid}`;
const post = (path: string, body?: unknown) => apiFetch<DonationDetail>(path, { method: 'POST', body: body ?? {} });

export const donationActions = {
  pause: (uuid: string, reason: string) => post(`${base(uuid)}/pause`, { reason }),
  restore: (uuid: string) => post(`${base(uuid)}/restore`),
  discard: (uuid: string, reason: string) => post(`${base(uuid)}/discard`, { reason }),
  collect: (uuid: string) => post(`${base(uuid)}/collect_payment`),
  edit: (uuid: string, edit: DonationEdit) => apiFetch<DonationDetail>(base(uuid), { method: 'PATCH', body: edit }),
  donor: (uuid: string, donor: Partial<Donor>) => apiFetch<DonationDetail>(`${base(uuid)}/donor`, { method: 'PATCH', body: donor }),
  paymentMethod: (uuid: string, body: unknown) => post(`${base(uuid)}/payment_method`, body),
  addUpgrade: (uuid: string, body: { percentage: string; period: number; auto?: boolean }) => post(`${base(uuid)}/upgrades`, body),
  editUpgrade: (uuid: string, id: string, body: { percentage: string; period: number; auto?: boolean }) =>
    apiFetch<DonationDetail>(`${base(uuid)}/upgrades/${id}`, { method: 'PATCH', body }),
  removeUpgrade: (uuid: string, id: string) => apiFetch<DonationDetail>(`${base(uuid)}/upgrades/${id}`, { method: 'DELETE' }),
  discardDonor: (donor: string, reason: string) => apiFetch<unknown>(`/manage/api/donors/${donor}/discard`, { method: 'POST', body: { reason } }),
  reactivateDonor: (donor: string) => apiFetch<unknown>(`/manage/api/donors/${donor}/reactivate`, { method: 'POST', body: {} }),
};

/** Puts an action's answer (the fresh detail) in the cache, and marks lists and history stale. */
export function storeDetail(qc: QueryClient, uuid: string, detail: DonationDetail | undefined) {
  if (detail && typeof detail === 'object' && 'donation' in detail) qc.setQueryData(donationQuery(uuid).queryKey, detail);
  else void qc.invalidateQueries({ queryKey: donationQuery(uuid).queryKey });
  void qc.invalidateQueries({ queryKey: ['donations', 'list'] });
  void qc.invalidateQueries({ queryKey: ['donations', 'versions', uuid] });
  void qc.invalidateQueries({ queryKey: ['dashboard'] });
}
