import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import type { Money } from '../../donate/lib/money';

export interface Dashboard {
  period: { from: string; to: string; days: number; granularity: 'day' | 'month'; timezone: string };
  filters: { campaign: string | null; frequency: string | null };
  raised: { amount: Money; transactions: number }[];
  average: Money[];
  new_donations: number;
  paused_donations: number;
  paused_in_grace: number;
  discarded_donations: number;
  visits: number;
  conversion: number | null;
  pause_reasons: { reason: string | null; count: number }[];
  discard_reasons: { reason: string | null; count: number }[];
  series: { bucket: string; raised: Money[]; new_donations: number; visits: number }[];
  has_campaigns: boolean;
  campaign_guide: { name: string; step: number; steps: number; show: boolean };
}

export const dashboardQuery = (qs: string) =>
  queryOptions({
    queryKey: ['dashboard', qs],
    queryFn: ({ signal }) => apiFetch<Dashboard>(`/manage/api/dashboard${qs ? `?${qs}` : ''}`, { signal }),
    placeholderData: (prev) => prev,
    retry: false,
  });

export const saveCampaignGuide = (step: number) =>
  apiFetch<unknown>('/manage/api/tours/create_campaign/progress', { method: 'PUT', body: { step } }).catch((e: unknown) => console.warn('guide create_campaign', e));
