import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import type { MepNote, Money, PaymentAuthorization, Plan, Subscription, SubscriptionPage } from '../../api/types.gen';

export type { Plan, Subscription };

export type Period = 'monthly' | 'yearly';

/** The signed-in organisation's subscription (GET /manage/api/subscription). */
export const subscriptionQuery = () =>
  queryOptions({
    queryKey: ['subscription'],
    queryFn: async ({ signal }) => (await apiFetch<{ subscription: Subscription }>('/manage/api/subscription', { signal })).subscription,
  });

/**
 * §6 allowedByPlan: QR download, immediate charge and global payments need a plan other than Original.
 * It reads the EFFECTIVE plan (Essential during the 90-day trial), as the server's internal/plans.AllowedByPlan does.
 */
export const allowedByPlan = (s: Pick<Subscription, 'effective_plan_code'>) => s.effective_plan_code !== '' && s.effective_plan_code !== 'original';

/** `?period=`: yearly, anything else monthly (§2). */
export const periodOf = (v: unknown): Period => (v === 'yearly' ? 'yearly' : 'monthly');

/** The plan a `?plan=` (tier name, any case) and period name, if any (§2): then the flow goes straight to payment. */
export const planOf = (plans: Plan[], tier: string | undefined, period: Period) =>
  tier ? plans.find((p) => p.period === period && p.code !== 'original' && p.tier_name.toLowerCase() === tier.toLowerCase()) : undefined;

/** The country's paid plans of one period, by tier (the server orders them). */
export const paidPlans = (plans: Plan[], period: Period) => plans.filter((p) => p.period === period && p.code !== 'original');

export type { Billing, Invoice, PaymentAuthorization, SubscriptionPage } from '../../api/types.gen';

/** The subscription page's data: plan state, the bought subscription, invoices and the PLATFORM's tokeniser. */
export const subscriptionPageQuery = () =>
  queryOptions({
    queryKey: ['subscription', 'page'],
    queryFn: ({ signal }) => apiFetch<SubscriptionPage>('/manage/api/subscription', { signal }),
  });

export type PaymentModeType = 'card' | 'cbu' | 'bank_transfer';

type Authorized = Promise<{ authorization: PaymentAuthorization }>;

/** §7: the card goes to the tokeniser first; only its token reaches Aporta, which saves it at the platform's account. */
export const validateCard = (body: { plan_code: string; token: string; payment_method_id?: string; cardholder_name: string; cardholder_uid: string }): Authorized =>
  apiFetch('/manage/api/validations/card', { method: 'POST', body });

/** The CBU (check digits verified by the server) and the accepted direct-debit mandate. */
export const validateCbu = (body: { cbu: string; accept_mandate: boolean }): Authorized => apiFetch('/manage/api/validations/cbu', { method: 'POST', body });

export interface TransferPayer { name: string; email: string; uid_type: string; uid_number: string; cellphone: { country: string; number: string } }

export const validateTransfer = (body: TransferPayer & { plan_code: string }): Authorized =>
  apiFetch('/manage/api/validations/bank_transfer', { method: 'POST', body });

export const subscribe = (plan_code: string, type: PaymentModeType, authorization: string) =>
  apiFetch<{ subscription: SubscriptionPage['billing'] }>('/manage/api/subscription', { method: 'POST', body: { plan_code, payment_mode: { type, authorization } } });

export const changePaymentMode = (type: PaymentModeType, authorization: string) =>
  apiFetch<SubscriptionPage>('/manage/api/subscription/payment_mode', { method: 'PUT', body: { payment_mode: { type, authorization } } });

/** A paid period's invoice as a PDF (the server answers only the organisation's own). */
export const invoicePdfUrl = (id: string) => `/manage/api/subscription/invoices/${encodeURIComponent(id)}/pdf`;

/** Another plan (an upgrade now, charged pro rata; anything else from the next period). */
export const changePlan = (plan_code: string) =>
  apiFetch<SubscriptionPage & { change: 'upgrade' | 'scheduled' | 'kept'; charged: Money | null }>('/manage/api/subscription/change', { method: 'POST', body: { plan_code } });

export const cancelSubscription = () => apiFetch<SubscriptionPage>('/manage/api/subscription/cancel', { method: 'POST' });

/** A CBU as typed: its digits only. */
export const cbuDigits = (v: string) => v.replace(/\D/g, '');

/**
 * §9's ARS note: the MEP rate in force (its source and day) and each Argentine plan's USD price in pesos at it, reckoned by
 * the server (GET /api/public/mep). Not suspended: the pages stand without it when no rate can be had.
 */
export const mepQuery = () =>
  queryOptions({
    queryKey: ['mep'],
    queryFn: ({ signal }) => apiFetch<MepNote>('/api/public/mep', { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });

/** What a plan is charged at now: in pesos, its USD price at the MEP rate in force (as the server charges it); else its price. */
export function useChargedPrice(plan: Plan | undefined) {
  const ars = plan?.localize_price.currency === 'ARS';
  const { data } = useQuery({ ...mepQuery(), enabled: ars });
  return plan && ((ars && data?.prices[plan.code]) || plan.localize_price);
}
