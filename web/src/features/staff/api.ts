import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import type { AuditEntry, MepHistory, WaitingOrganization } from '../../api/types.gen';
import type { Organization } from '../documents/api';

export type { AuditEntry, WaitingOrganization };

export interface StaffOrganization extends Organization {
  review: { requested_at: string; due_at: string; hours_left: number; open: boolean; reminded_at: string | null } | null;
  audit_log: AuditEntry[];
}

export const waitingQuery = () =>
  queryOptions({
    queryKey: ['staff', 'organizations'],
    queryFn: async ({ signal }) => (await apiFetch<{ organizations: WaitingOrganization[] }>('/staff/api/organizations', { signal })).organizations ?? [],
    retry: false,
    refetchInterval: 60_000,
  });

export const staffOrganizationQuery = (id: string) =>
  queryOptions({
    queryKey: ['staff', 'organization', id],
    queryFn: ({ signal }) => apiFetch<StaffOrganization>(`/staff/api/organizations/${id}`, { signal }),
    retry: false,
  });

const base = (org: string) => `/staff/api/organizations/${org}`;

export const approveDocument = (org: string, type: string) => apiFetch<StaffOrganization>(`${base(org)}/documents/${type}/approve`, { method: 'POST' });

export const rejectDocument = (org: string, type: string, reason: string) =>
  apiFetch<StaffOrganization>(`${base(org)}/documents/${type}/reject`, { method: 'POST', body: { reason } });

export const enableAccount = (org: string) => apiFetch<StaffOrganization>(`${base(org)}/enable`, { method: 'POST' });

export const grantPlan = (org: string, planCode: string, reason: string) =>
  apiFetch<StaffOrganization>(`${base(org)}/plan`, { method: 'POST', body: { plan_code: planCode, reason } });

/** Oldest request first (the server already sorts; this keeps the order if it ever does not). */
export function byOldest(list: WaitingOrganization[]) {
  return [...list].sort((a, b) => a.review_requested_at.localeCompare(b.review_requested_at));
}

/** Whole hours left on the 48 h target from the due date, never negative. */
export function hoursLeft(dueAt: string, now: Date = new Date()) {
  const ms = new Date(dueAt).getTime() - now.getTime();
  return ms <= 0 ? 0 : Math.ceil(ms / 3_600_000);
}

/** The dollar MEP rate in force and its history: provider quotes and staff overrides (GET /staff/api/mep). */
export const mepHistoryQuery = () =>
  queryOptions({
    queryKey: ['staff', 'mep'],
    queryFn: ({ signal }) => apiFetch<MepHistory>('/staff/api/mep', { signal }),
    retry: false,
  });

/** Overrides the rate of a day (today or earlier), with the reason kept beside it. */
export const overrideMep = (body: { rate: string; as_of: string; reason: string }) => apiFetch<MepHistory>('/staff/api/mep', { method: 'POST', body });
