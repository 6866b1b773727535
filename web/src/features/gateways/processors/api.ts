import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import type { GatewayOption, PaymentProcessor, PaymentProcessorForm, PaymentProcessors } from '../../../api/types.gen';

export type { GatewayOption, PaymentProcessor, PaymentProcessorForm };

export const LOCAL = 'local_payments';
export const GLOBAL = 'global_payments';

/** The organisation's processors (by order), the integrated gateway options with fee and descriptor rule, its flags. */
export const processorsQuery = () =>
  queryOptions({
    queryKey: ['payment_processors'],
    queryFn: ({ signal }) => apiFetch<PaymentProcessors>('/manage/api/payment_processors', { signal }),
    retry: false,
  });

export const saveProcessor = (form: PaymentProcessorForm, id?: string) =>
  id
    ? apiFetch<PaymentProcessor>(`/manage/api/payment_processors/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body: { soft_descriptor: form.soft_descriptor, rules: form.rules },
      })
    : apiFetch<PaymentProcessor>('/manage/api/payment_processors', { method: 'POST', body: form });

export const discardProcessor = (id: string) => apiFetch<void>(`/manage/api/payment_processors/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** The gateways page's product events; a failure is only reported to the console (spec §7). */
export function track(event: 'click_disabled_global_payments_message' | 'click_create_payment_processor', gatewayId: string) {
  apiFetch<void>('/manage/api/track', {
    method: 'POST',
    body: { event, trigger: 'button', breadcrumbs: { path: window.location.pathname, gateway_id: gatewayId } },
  }).catch((e: unknown) => console.error('track', e));
}

/** The forbidden descriptor characters (spec §5 "Descriptor"). */
export const FORBIDDEN = /[<>\\'"*]/;
