import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import type { PayoutDetail, PayoutPage } from '../../api/types.gen';

export type Payout = PayoutPage['payouts'][number];
export type PayoutItem = PayoutDetail['items'][number];
export type { PayoutDetail };

/** Payouts per page (api/payouts PageSize). */
export const PAGE_SIZE = 20;

export const payoutsQuery = (page: number) =>
  queryOptions({
    queryKey: ['payouts', page],
    queryFn: ({ signal }) => apiFetch<PayoutPage>(`/manage/api/payouts?page=${page}`, { signal }),
  });

export const payoutQuery = (id: string) =>
  queryOptions({
    queryKey: ['payouts', 'one', id],
    queryFn: ({ signal }) => apiFetch<PayoutDetail>(`/manage/api/payouts/${encodeURIComponent(id)}`, { signal }),
  });
