import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import type { Bank, BankAccount, BankAccountForm, BankAccounts, BankParams } from '../../../api/types.gen';

export type { Bank, BankAccount, BankAccountForm, BankParams };

/** The organisation's payout accounts, the active one first (spec §7 "Gateways"). */
export const bankAccountsQuery = () =>
  queryOptions({
    queryKey: ['bank_accounts'],
    queryFn: async ({ signal }) => (await apiFetch<BankAccounts>('/manage/api/bank_accounts', { signal })).bank_accounts,
    retry: false,
  });

/** The organisation's country's bank form: its banks, account types and extra required fields. */
export const bankParamsQuery = () =>
  queryOptions({
    queryKey: ['country', 'bank_params'],
    queryFn: async ({ signal }) => (await apiFetch<{ bank_params: BankParams }>('/manage/api/country', { signal })).bank_params,
    staleTime: Infinity,
    retry: false,
  });

/** Creates an account (it becomes the active one) or, with an id, edits it; an empty number keeps the stored one. */
export const saveBankAccount = (form: BankAccountForm, id?: string) =>
  id
    ? apiFetch<BankAccount>(`/manage/api/bank_accounts/${encodeURIComponent(id)}`, { method: 'PATCH', body: form })
    : apiFetch<BankAccount>('/manage/api/bank_accounts', { method: 'POST', body: form });

/** The account types a bank offers: its own, else its country's (spec §5 "Bank account form"). */
export const typesOf = (params: BankParams, bank?: Bank) => bank?.account_types ?? params.account_types;
