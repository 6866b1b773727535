import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';

export interface OrgUser {
  uuid: string;
  email: string;
  first_name: string;
  last_name: string;
  full_name: string;
  role: string;
  status: 'active' | 'discarded';
  /** null until the person first signs in, i.e. while the invitation is pending. */
  last_login_at: string | null;
  discarded_at: string | null;
  self: boolean;
}

export interface Invitation {
  email: string;
  first_name: string;
  last_name: string;
  role: string;
}

export const usersQuery = () =>
  queryOptions({
    queryKey: ['users'],
    queryFn: async ({ signal }) => (await apiFetch<{ users: OrgUser[] }>('/manage/api/users', { signal })).users,
    retry: false,
  });

export const inviteUser = (invitation: Invitation) => apiFetch<{ user: OrgUser }>('/manage/api/users', { method: 'POST', body: invitation });
export const discardUser = (uuid: string) => apiFetch<{ user: OrgUser }>(`/manage/api/users/${uuid}`, { method: 'DELETE' });
export const reactivateUser = (uuid: string) => apiFetch<{ user: OrgUser }>(`/manage/api/users/${uuid}/reactivate`, { method: 'POST' });
