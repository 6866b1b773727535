import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';

export interface OrgUser {
  /** The member's user uuid, or the invitation's uuid while it is pending. */
  uuid: string;
  email: string;
  first_name: string;
  last_name: string;
  full_name: string;
  role: string;
  /** pending: invited, not accepted yet (names are what the inviter typed). */
  status: 'active' | 'discarded' | 'pending' | 'cancelled';
  last_login_at: string | null;
  discarded_at: string | null;
  /** When a pending invitation's link stops working. */
  expires_at?: string;
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
/** Discards a member, or cancels a pending invitation. */
export const discardUser = (uuid: string) => apiFetch<{ user: OrgUser }>(`/manage/api/users/${uuid}`, { method: 'DELETE' });
export const reactivateUser = (uuid: string) => apiFetch<{ user: OrgUser }>(`/manage/api/users/${uuid}/reactivate`, { method: 'POST' });
export const resendInvitation = (uuid: string) => apiFetch<{ user: OrgUser }>(`/manage/api/users/${uuid}/invitation`, { method: 'POST' });

/** An invitation as its link's holder sees it. */
export interface ReceivedInvitation {
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  organization_name: string;
  invited_by: string;
  expires_at: string;
  /** existing: the address has a verified account, whose owner signs in to accept. */
  account: 'new' | 'existing';
}

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
