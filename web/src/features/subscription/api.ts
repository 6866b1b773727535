import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import type { Plan, Subscription } from '../../api/types.gen';

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

/** The country's paid plans of one period, by tier (the server orders them). */
export const paidPlans = (plans: Plan[], period: Period) => plans.filter((p) => p.period === period && p.code !== 'original');
