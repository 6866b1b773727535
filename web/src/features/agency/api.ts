import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import type { Acquisition, AgencyAcquireRequest, AgencyAcquisitionReply, AgencyAcquisitions, AgencyMe } from '../../api/types.gen';
import type { Reasons } from '../donations/api';

export type { Acquisition, AgencyMe };

export const agencyMeQuery = () =>
  queryOptions({ queryKey: ['agency', 'me'], queryFn: ({ signal }) => apiFetch<AgencyMe>('/agency/api/me', { signal }), retry: false });

/** The team's sign-ups; while one waits for its sync the list looks again every 15 s, so the agent sees it pass. */
export const acquisitionsQuery = () =>
  queryOptions({
    queryKey: ['agency', 'acquisitions'],
    queryFn: async ({ signal }) => (await apiFetch<AgencyAcquisitions>('/agency/api/acquisitions', { signal })).acquisitions,
    retry: false,
    refetchInterval: (query) => (query.state.data?.some((a) => a.status === 'pending') ? 15_000 : false),
  });

export const acquire = (body: AgencyAcquireRequest) => apiFetch<AgencyAcquisitionReply>('/agency/api/acquisitions', { method: 'POST', body });
export const correctAmount = (uuid: string, amount: string) =>
  apiFetch<AgencyAcquisitionReply>(`/agency/api/acquisitions/${uuid}`, { method: 'PATCH', body: { amount } });
export const voidAcquisition = (uuid: string) => apiFetch<AgencyAcquisitionReply>(`/agency/api/acquisitions/${uuid}/void`, { method: 'POST' });

/** The pause and discard reasons the management dialogs offer, in the user's language. */
export const agencyReasonsQuery = (locale: string) =>
  queryOptions({
    queryKey: ['agency', 'reasons', locale],
    queryFn: ({ signal }) => apiFetch<Reasons>(`/agency/api/donation_reasons?locale=${locale}`, { signal }),
    staleTime: Infinity,
  });

/** The management actions on a synced donation (Keto's Donation#manage decides each on the server). */
const managed = (uuid: string, action: string, body?: unknown) =>
  apiFetch<AgencyAcquisitionReply>(`/agency/api/acquisitions/${uuid}/${action}`, { method: 'POST', body: body ?? {} });
export const manageAcquisition = {
  paymentMethod: (uuid: string, body: unknown) => managed(uuid, 'payment_method', body),
  pause: (uuid: string, reason: string) => managed(uuid, 'pause', { reason }),
  discard: (uuid: string, reason: string) => managed(uuid, 'discard', { reason }),
  restore: (uuid: string) => managed(uuid, 'restore'),
};
