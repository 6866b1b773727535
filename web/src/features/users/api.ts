import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import type { OrgUser, ReceivedInvitation } from '../../api/types.gen';

export type { OrgUser, ReceivedInvitation };

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
/** Discards a member, or cancels a pending invitation. */
export const discardUser = (uuid: string) => apiFetch<{ user: OrgUser }>(`/manage/api/users/${uuid}`, { method: 'DELETE' });
export const reactivateUser = (uuid: string) => apiFetch<{ user: OrgUser }>(`/manage/api/users/${uuid}/reactivate`, { method: 'POST' });
export const resendInvitation = (uuid: string) => apiFetch<{ user: OrgUser }>(`/manage/api/users/${uuid}/invitation`, { method: 'POST' });

// The token travels in request bodies, never in API URLs (they end up in logs).
export const invitationQuery = (token: string) =>
  queryOptions({
    queryKey: ['invitation', token],
    queryFn: async () =>
      (await apiFetch<{ invitation: ReceivedInvitation }>('/internal/api/invitations/show', { method: 'POST', body: { token } })).invitation,
    retry: false,
    staleTime: Infinity,
  });

export const acceptAsNew = (body: { token: string; first_name: string; last_name: string; password: string }) =>
  apiFetch<{ redirect_to: string }>('/internal/api/invitations/accept', { method: 'POST', body });

export const acceptSignedIn = (token: string) =>
  apiFetch<{ redirect_to: string }>('/account/api/invitations/accept', { method: 'POST', body: { token } });
