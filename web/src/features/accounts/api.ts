import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import type { Cellphone, CountryData, CurrentUser, SignupPayload } from '../../api/types.gen';

export type { Cellphone, CountryData, CurrentUser, SignupPayload };

/** The countries Aporta operates in, from the reference tables. */
export const countriesQuery = () =>
  queryOptions({
    queryKey: ['countries'],
    queryFn: async ({ signal }) => (await apiFetch<{ countries: CountryData[] }>('/api/public/countries', { signal })).countries,
    staleTime: Infinity,
  });

export const currentUserQuery = () =>
  queryOptions({
    queryKey: ['user'],
    queryFn: ({ signal }) => apiFetch<CurrentUser>('/manage/api/user', { signal }),
    retry: false,
  });

export type VerificationType = 'email' | 'cellphone';

export const validateEmail = (email: string) =>
  apiFetch<{ valid: boolean }>('/internal/api/validate/email', { method: 'POST', body: { email } });

export const validateCellphone = (cellphone: Cellphone) =>
  apiFetch<{ valid: boolean; e164?: string }>('/internal/api/validate/cellphone', { method: 'POST', body: cellphone });

export const validateUid = (body: { country: string; uid_type: string; uid: string }) =>
  apiFetch<{ valid: boolean; uid?: string; formatted?: string }>('/internal/api/validate/uid', { method: 'POST', body });

export const register = (payload: SignupPayload, idempotencyKey: string) =>
  apiFetch<{ redirect_to?: string }>('/internal/api/accounts/register', {
    method: 'POST',
    body: payload,
    headers: { 'Idempotency-Key': idempotencyKey },
  });

export const sendCode = (type: VerificationType) =>
  apiFetch<{ sent: boolean }>(`/manage/api/accounts/verifications/${type}/send_code`, { method: 'POST' });

export const verifyCode = (type: VerificationType, code: string) =>
  apiFetch<{ verifications: CurrentUser['verifications'] }>(`/manage/api/accounts/verifications/${type}/verify`, {
    method: 'POST',
    body: { code },
  });

/** Changes the cellphone, or asks to change the e-mail (pending until its code is verified); the server sends a code. */
export const changeContact = (user: { email: string } | { cellphone: Cellphone }) =>
  apiFetch<CurrentUser>('/manage/api/user', { method: 'PUT', body: { user } });

/** Drops a pending e-mail change: the login e-mail stays. */
export const cancelEmailChange = () => apiFetch<void>('/manage/api/user/email_change', { method: 'DELETE' });

export const updateMyData = (user: { first_name?: string; last_name?: string; role_area?: string; locale?: string }) =>
  apiFetch<CurrentUser>('/manage/api/user', { method: 'PATCH', body: { user } });

export const changePassword = (body: { current_password: string; password: string }) =>
  apiFetch<void>('/manage/api/user/password', { method: 'PUT', body });
