import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import type { Dashboard } from '../../api/types.gen';
import { dashboardQueryString, type DashboardSearch } from './search';

export type { Dashboard };

export const dashboardQuery = (search: DashboardSearch) => {
  const qs = dashboardQueryString(search);
  return queryOptions({
    queryKey: ['dashboard', qs],
    queryFn: ({ signal }) => apiFetch<Dashboard>(`/manage/api/dashboard${qs ? `?${qs}` : ''}`, { signal }),
    retry: false,
  });
};

export const saveCampaignGuide = (step: number) =>
  apiFetch<unknown>('/manage/api/tours/create_campaign/progress', { method: 'PUT', body: { step } }).catch((e: unknown) => console.warn('guide create_campaign', e));
