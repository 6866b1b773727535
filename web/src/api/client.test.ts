import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch, fieldErrors } from './client';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  document.head.innerHTML = '<meta name="csrf-token" content="tok-123">';
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const lastHeaders = () => new Headers(fetchMock.mock.calls.at(-1)?.[1]?.headers);

describe('apiFetch', () => {
  it('GETs JSON without the CSRF header', async () => {
    fetchMock.mockResolvedValue(new Response('{"status":"ok"}', { status: 200 }));
    await expect(apiFetch('/readyz')).resolves.toEqual({ status: 'ok' });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init).toMatchObject({ method: 'GET', credentials: 'same-origin' });
    expect(lastHeaders().get('Accept')).toBe('application/json');
    expect(lastHeaders().has('X-CSRF-Token')).toBe(false);
  });

  it('sends the page CSRF token and a JSON body on mutating calls', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    await expect(apiFetch('/manage/api/donations/1/pause', { method: 'POST', body: { reason: 'by_org' } })).resolves.toBeUndefined();
    expect(lastHeaders().get('X-CSRF-Token')).toBe('tok-123');
    expect(lastHeaders().get('Content-Type')).toBe('application/json');
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe('{"reason":"by_org"}');
  });

  it('turns the error envelope into a typed ApiError', async () => {
    fetchMock.mockResolvedValue(new Response('{"error":{"code":"not_found","message":"Donación no encontrada"}}', { status: 404 }));
    const error = await apiFetch('/manage/api/donations/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', message: 'Donación no encontrada' });
  });

  it('still throws an ApiError for non-envelope failures', async () => {
    fetchMock.mockResolvedValue(new Response('<html>oops</html>', { status: 502, statusText: 'Bad Gateway' }));
    await expect(apiFetch('/readyz')).rejects.toMatchObject({ status: 502, code: 'http_502', message: 'Bad Gateway' });
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(apiFetch('/readyz')).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });
});

describe('fieldErrors', () => {
  it("keeps the server's per-field messages", () => {
    const e = new ApiError(422, 'user.invalid', 'Revisa los datos', undefined, { first_name: 'Falta el nombre' });
    expect(fieldErrors(e, 'email')).toEqual({ first_name: 'Falta el nombre' });
  });

  it('puts any other failure under the fallback field', () => {
    expect(fieldErrors(new ApiError(409, 'user.exists', 'Ya existe'), 'email')).toEqual({ email: 'Ya existe' });
    expect(fieldErrors(new Error('network'), 'agency_name')).toEqual({ agency_name: 'network' });
  });
});
