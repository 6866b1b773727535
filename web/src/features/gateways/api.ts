import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '../../api/client';
import { organizationQuery } from '../documents/api';

export type ConnectionStatus = 'active' | 'needs_reconnection';

/** An organisation's link to a gateway account; the API never sends its secrets. */
export interface Connection {
  id: string;
  status: ConnectionStatus;
  activated_at: string;
  account_name: string;
  live_mode: boolean;
}

export interface Gateway {
  id: string;
  enabled: boolean;
  connection: Connection | null;
}

export const gatewaysQuery = () =>
  queryOptions({
    queryKey: ['payment_gateways'],
    queryFn: async ({ signal }) => (await apiFetch<{ gateways: Gateway[] }>('/manage/api/payment_gateways', { signal })).gateways,
    retry: false,
  });

/** Exchanges a CentralPos authorization code for a connection (201 with the connection). */
export const connectCentralPos = (token: string) =>
  apiFetch<Connection>('/manage/api/payment_gateways/centralpos', { method: 'POST', body: { token } });

/** Irreversible: the server also revokes the link at the gateway where it can. */
export const deleteGateway = (id: string) => apiFetch<void>(`/manage/api/payment_gateways/${encodeURIComponent(id)}`, { method: 'DELETE' });

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
