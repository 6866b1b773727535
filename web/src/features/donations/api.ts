import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import type {
  CampaignRef, DonationDetail as GeneratedDetail, DonationListItem, DonationRecord, DonorSnapshot, DonorView, PaymentMethodView,
  TransactionView, UpgradeAppliedView, UpgradeView, Version,
} from '../../api/types.gen';
import { donationsQueryString, type DonationsSearch } from './search';

export type {
  CampaignRef, DonationListItem, DonorView as Donor, DonorSnapshot as SubmittedDonor, PaymentMethodView as PaymentMethod,
  TransactionView as Transaction, UpgradeAppliedView as UpgradeApplied, UpgradeView as Upgrade, Version,
};
export interface DonationList { donations: DonationListItem[]; total: number; page: number; per_page: number }
export type DonationAction =
  | 'pause' | 'restore' | 'discard' | 'collect_payment' | 'change_amount' | 'change_payment_method' | 'upgrade' | 'edit_donor';

/** GET /manage/api/donations/:uuid, with what the Go struct carries as raw JSON or plain strings typed here. */
export type DonationDetail = Omit<GeneratedDetail, 'donation'> & {
  donation: Omit<DonationRecord, 'form_values' | 'actions'> & {
    /** Answers to the campaign's extra form fields, as the donor saw each field. */
    form_values: FormValue[];
    actions: DonationAction[];
  };
};

export interface FormValue { order: number; type: string; title: string; label: string; value: string }
export interface Reason { code: string; label: string }
export interface Reasons { pause_reasons: Reason[]; discard_reasons: Reason[]; default_pause_reason: string; default_discard_reason: string }

export const donationsQuery = (search: DonationsSearch) => {
  const qs = donationsQueryString(search);
  return queryOptions({
    queryKey: ['donations', 'list', qs],
    queryFn: ({ signal }) => apiFetch<DonationList>(`/manage/api/donations?${qs}`, { signal }),
    retry: false,
  });
};

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
  donor: (uuid: string, donor: Partial<DonorView>) => apiFetch<DonationDetail>(`${base(uuid)}/donor`, { method: 'PATCH', body: donor }),
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
