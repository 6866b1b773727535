import { queryOptions } from '@tanstack/react-query';
import { apiFetch, apiFetchWithHeaders } from '../../api/client';
import type { CrmIntegrationList, CrmRequests, CrmSetup } from '../../api/types.gen';

export type { CrmSetup };
export type CrmRule = CrmSetup['rules'][number];
export type CrmAttribute = CrmSetup['attributes'][number];
export type CrmField = CrmSetup['objects'][string]['fields'][number];
export type CrmRequest = CrmRequests['requests'][number];

/** The setup's editable fields: what POST /manage/api/integrations and PATCH …/setup take. */
export interface SetupFields {
  name?: string;
  login_url?: string;
  client_id?: string;
  client_secret?: string;
  external_id_field?: string;
  daily_call_limit?: number | null;
  status?: 'active' | 'paused';
}

/** A rule as POST …/rules and PATCH …/rules/{id} take it. */
export type RuleFields = Omit<CrmRule, 'id'>;

const base = (uuid: string) => `/manage/settings/integrations/${encodeURIComponent(uuid)}`;

export const integrationsQuery = () =>
  queryOptions({
    queryKey: ['integrations'],
    queryFn: async ({ signal }) => (await apiFetch<CrmIntegrationList>('/manage/api/integrations', { signal })).integrations,
  });

export const setupQuery = (uuid: string) =>
  queryOptions({
    queryKey: ['integrations', uuid, 'setup'],
    queryFn: ({ signal }) => apiFetch<CrmSetup>(`${base(uuid)}/setup`, { signal }),
    // The queue drains in the background: the progress refreshes while the page is open.
    refetchInterval: 5000,
  });

/** A page of the request log, with the counts the server sends in its pagination headers. */
export const requestsQuery = (uuid: string, page: number) =>
  queryOptions({
    queryKey: ['integrations', uuid, 'requests', page],
    queryFn: async ({ signal }) => {
      const { body, headers } = await apiFetchWithHeaders<CrmRequests>(`${base(uuid)}/requests/page/${page}`, { signal });
      const count = (name: string) => Number(headers.get(name) ?? 0) || 0;
      return { requests: body.requests, page: count('current-page') || page, totalPages: count('total-pages'), totalCount: count('total-count') };
    },
    refetchInterval: 5000,
  });

export const createIntegration = (fields: SetupFields) => apiFetch<CrmSetup>('/manage/api/integrations', { method: 'POST', body: fields });
export const patchSetup = (uuid: string, fields: SetupFields) => apiFetch<CrmSetup>(`${base(uuid)}/setup`, { method: 'PATCH', body: fields });
export const resync = (uuid: string) => apiFetch<CrmSetup>(`${base(uuid)}/setup/sync`, { method: 'POST' });
export const createRule = (uuid: string, rule: RuleFields) => apiFetch<CrmRule>(`${base(uuid)}/rules`, { method: 'POST', body: rule });
export const patchRule = (uuid: string, id: string, rule: Omit<RuleFields, 'class_name'>) =>
  apiFetch<CrmRule>(`${base(uuid)}/rules/${encodeURIComponent(id)}`, { method: 'PATCH', body: rule });
export const deleteRule = (uuid: string, id: string) => apiFetch<void>(`${base(uuid)}/rules/${encodeURIComponent(id)}`, { method: 'DELETE' });
export const retryRequest = (uuid: string, id: string) =>
  apiFetch<{ retried: number }>(`${base(uuid)}/requests/${encodeURIComponent(id)}/retry`, { method: 'POST' });

/** Which CRM objects each class may be written to (the server checks it too). */
export const objectsOf: Record<string, string[]> = {
  donor: ['contact'],
  campaign: ['campaign'],
  donation: ['recurring_donation', 'opportunity'],
};
