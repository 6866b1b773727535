import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '../../api/client';
import type { Gateway, GatewayConnection, PaymentGateways } from '../../api/types.gen';
import { organizationQuery } from '../documents/api';

export type { Gateway, GatewayConnection };

/** The organisation's gateways; the cache keeps the whole answer, whose organization_id the OAuth form posts back. */
export const gatewaysQuery = () =>
  queryOptions({
    queryKey: ['payment_gateways'],
    queryFn: ({ signal }) => apiFetch<PaymentGateways>('/manage/api/payment_gateways', { signal }),
    select: (list: PaymentGateways) => list.gateways,
    retry: false,
  });

/** Exchanges a CentralPos authorization code for a connection (201 with the connection). */
export const connectCentralPos = (token: string) =>
  apiFetch<GatewayConnection>('/manage/api/payment_gateways/centralpos', { method: 'POST', body: { token } });

/** Removes a connection (by its id) for good: the server also revokes the link at the gateway where it can. */
export const deleteConnection = (connectionId: string) =>
  apiFetch<void>(`/manage/api/payment_gateways/${encodeURIComponent(connectionId)}`, { method: 'DELETE' });

/** Where the OAuth callback sends the browser back to. */
export type ReturnTo = 'settings' | 'onboarding';

/**
 * The outcome the OAuth callback leaves in the address (?connected=mercadopago or ?error=<code>);
 * anything malformed is dropped rather than failing the page.
 */
export const outcomeSearch = z.object({
  connected: z.string().regex(/^[a-z_]+$/).optional().catch(undefined),
  error: z.string().regex(/^[a-z_.]+$/).optional().catch(undefined),
});
export type Outcome = z.infer<typeof outcomeSearch>;

/** What both gateway pages' loaders need: the gateways and the organisation (for its timezone). */
export const loadGatewayPage = (queryClient: QueryClient) =>
  Promise.all([queryClient.ensureQueryData(gatewaysQuery()), queryClient.ensureQueryData(organizationQuery())]);
