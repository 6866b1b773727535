import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import type { WebhookDeliveries, WebhookList, WebhookWithSecret } from '../../api/types.gen';

export type WebhookEndpoint = WebhookList['endpoints'][number];
export type WebhookDelivery = WebhookDeliveries['deliveries'][number];
export type { WebhookWithSecret };

/** What POST /manage/api/webhooks and PATCH …/{id} take; a PATCH sends only what changes. */
export interface EndpointFields {
  url?: string;
  description?: string;
  events?: string[];
  status?: 'active' | 'disabled';
}

const base = '/manage/api/webhooks';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

export const webhooksQuery = () =>
  queryOptions({
    queryKey: ['webhooks'],
    queryFn: ({ signal }) => apiFetch<WebhookList>(base, { signal }),
  });

/** A page of an endpoint's delivery log; deliveries are retried in the background, so it refreshes while open. */
export const deliveriesQuery = (id: string, page: number) =>
  queryOptions({
    queryKey: ['webhooks', id, 'deliveries', page],
    queryFn: ({ signal }) => apiFetch<WebhookDeliveries>(`${one(id)}/deliveries?page=${page}`, { signal }),
    refetchInterval: 3000,
  });

export const createEndpoint = (fields: EndpointFields) => apiFetch<WebhookWithSecret>(base, { method: 'POST', body: fields });
export const patchEndpoint = (id: string, fields: EndpointFields) => apiFetch<WebhookEndpoint>(one(id), { method: 'PATCH', body: fields });
export const deleteEndpoint = (id: string) => apiFetch<void>(one(id), { method: 'DELETE' });
export const rotateSecret = (id: string) => apiFetch<WebhookWithSecret>(`${one(id)}/secret`, { method: 'POST' });
export const resendDelivery = (id: string, delivery: string) =>
  apiFetch<WebhookDelivery>(`${one(id)}/deliveries/${encodeURIComponent(delivery)}/resend`, { method: 'POST' });
