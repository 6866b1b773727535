import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import type { CurrencySummary, TxRow } from '../../api/types.gen';
import { currentPeriod, rowsQueryString, TX_PER_PAGE, type TransactionsSearch } from './search';

export type { TxRow };
export interface Summary { from: string; to: string; currencies: CurrencySummary[] }

/** The month's totals per currency and status bucket. */
export const summaryQuery = (search: TransactionsSearch) => {
  const period = search.period ?? currentPeriod();
  return queryOptions({
    queryKey: ['tx', 'summary', period],
    queryFn: ({ signal }) => apiFetch<Summary>(`/manage/api/payment_transactions/summary/${period}`, { signal }),
    retry: false,
  });
};

/** One page of the month's transactions, narrowed to a bucket when the URL picks one. */
export const transactionsQuery = (search: TransactionsSearch) => {
  const qs = rowsQueryString(search, search.period ?? currentPeriod(), TX_PER_PAGE);
  return queryOptions({
    queryKey: ['tx', 'rows', qs],
    queryFn: ({ signal }) => apiFetch<{ transactions: TxRow[]; total: number }>(`/manage/api/payment_transactions?${qs}`, { signal }),
    retry: false,
  });
};
