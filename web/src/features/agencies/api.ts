import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import type { Agency, AgencyCampaigns, AgencyDetail, AgencyList, AgencyUser, OrgUser } from '../../api/types.gen';

export type { Agency, AgencyDetail, AgencyUser };

/** Sync delays an agency may have, in seconds (spec §4 Mode). */
export const SYNC_DELAYS = [0, 60, 300, 600, 1800, 3600, 7200] as const;
export const AGENCY_ROLES = ['manager', 'operator', 'supervisor'] as const;

export interface AgencySettings {
  agency_name: string;
  mode: 'sandbox' | 'live';
  sync_delay: number;
}

export interface AgencyPerson {
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  acquisition: boolean;
  management: boolean;
}

export interface Association {
  allow_one_time: boolean;
  allow_other_amount: boolean;
  amounts: string[];
}

const base = '/manage/api/agencies';

export const agenciesQuery = (status: 'active' | 'discarded' | 'all' = 'active') =>
  queryOptions({
    queryKey: ['agencies', status],
    queryFn: async ({ signal }) => (await apiFetch<AgencyList>(`${base}?status=${status}`, { signal })).agencies,
    retry: false,
  });

export const agencyQuery = (token: string) =>
  queryOptions({
    queryKey: ['agencies', 'one', token],
    queryFn: ({ signal }) => apiFetch<AgencyDetail>(`${base}/${token}`, { signal }),
    retry: false,
  });

export const authorisableCampaignsQuery = () =>
  queryOptions({
    queryKey: ['agencies', 'campaigns'],
    queryFn: async ({ signal }) => (await apiFetch<AgencyCampaigns>(`${base}/campaigns`, { signal })).campaigns,
    retry: false,
  });

/** The organisation's agency administrators (only administrators may list and invite them). */
export const agencyAdminsQuery = () =>
  queryOptions({
    queryKey: ['users', 'agency_admins'],
    queryFn: async ({ signal }) => (await apiFetch<{ users: OrgUser[] }>('/manage/api/users', { signal })).users.filter((u) => u.role === 'agency_admin'),
    retry: false,
  });

export const createAgency = (account: AgencySettings) => apiFetch<AgencyDetail>(base, { method: 'POST', body: { account } });
export const updateAgency = (token: string, account: AgencySettings) => apiFetch<AgencyDetail>(`${base}/${token}`, { method: 'PATCH', body: { account } });
export const discardAgency = (token: string) => apiFetch<AgencyDetail>(`${base}/${token}`, { method: 'DELETE' });
export const associateCampaign = (token: string, campaign: string, body: Association, existing: boolean) =>
  apiFetch<AgencyDetail>(`${base}/${token}/campaigns/${campaign}`, { method: existing ? 'PUT' : 'POST', body });
export const dissociateCampaign = (token: string, campaign: string) => apiFetch<AgencyDetail>(`${base}/${token}/campaigns/${campaign}`, { method: 'DELETE' });
export const addAgencyUser = (token: string, person: AgencyPerson) => apiFetch<{ user: AgencyUser }>(`${base}/${token}/users`, { method: 'POST', body: person });
export const editAgencyUser = (token: string, uuid: string, access: Pick<AgencyPerson, 'role' | 'acquisition' | 'management'>) =>
  apiFetch<{ user: AgencyUser }>(`${base}/${token}/users/${uuid}`, { method: 'PATCH', body: access });
export const discardAgencyUser = (token: string, uuid: string) => apiFetch<{ user: AgencyUser }>(`${base}/${token}/users/${uuid}`, { method: 'DELETE' });
export const reactivateAgencyUser = (token: string, uuid: string) => apiFetch<{ user: AgencyUser }>(`${base}/${token}/users/${uuid}/reactivate`, { method: 'POST' });
export const inviteAgencyAdmin = (person: { email: string; first_name: string; last_name: string }) =>
  apiFetch<{ user: OrgUser }>('/manage/api/users', { method: 'POST', body: { ...person, role: 'agency_admin' } });
export const discardAgencyAdmin = (uuid: string) => apiFetch<{ user: OrgUser }>(`/manage/api/users/${uuid}`, { method: 'DELETE' });
/** The edit-admin form: an agency administrator's role (another role takes them off this list). */
export const changeAgencyAdminRole = (uuid: string, role: string) => apiFetch<{ user: OrgUser }>(`/manage/api/users/${uuid}`, { method: 'PATCH', body: { role } });
