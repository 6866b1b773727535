import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import type { Acquisition, AgencyAcquireRequest, AgencyAcquisitionReply, AgencyAcquisitions, AgencyMe } from '../../api/types.gen';

export type { Acquisition, AgencyMe };

export const agencyMeQuery = () =>
  queryOptions({ queryKey: ['agency', 'me'], queryFn: ({ signal }) => apiFetch<AgencyMe>('/agency/api/me', { signal }), retry: false });

export const acquisitionsQuery = () =>
  queryOptions({
    queryKey: ['agency', 'acquisitions'],
    queryFn: async ({ signal }) => (await apiFetch<AgencyAcquisitions>('/agency/api/acquisitions', { signal })).acquisitions,
    retry: false,
  });

export const acquire = (body: AgencyAcquireRequest) => apiFetch<AgencyAcquisitionReply>('/agency/api/acquisitions', { method: 'POST', body });
export const correctAmount = (uuid: string, amount: string) =>
  apiFetch<AgencyAcquisitionReply>(`/agency/api/acquisitions/${uuid}`, { method: 'PATCH', body: { amount } });
export const voidAcquisition = (uuid: string) => apiFetch<AgencyAcquisitionReply>(`/agency/api/acquisitions/${uuid}/void`, { method: 'POST' });
