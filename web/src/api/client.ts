import { z } from 'zod';

/** A failed API call: `code` comes from the server's error envelope, or is synthesised for transport failures. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The parsed response body, for endpoints that explain failures in their own shape. */
    readonly body?: unknown,
    /** Per-field messages from the envelope's `fields`, when the server gave them. */
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** What to tell the user about a failed request: the server's first field message, else its message. */
export const errorText = (e: unknown) => (e instanceof ApiError ? (Object.values(e.fields)[0] ?? e.message) : e instanceof Error ? e.message : String(e));

/** A failure as a form's per-field messages: the server's `fields`, or else its text under `fallback` (the field it shows under). */
export const fieldErrors = (e: unknown, fallback: string): Record<string, string> => {
  const fields = e instanceof ApiError ? e.fields : {};
  return Object.keys(fields).length > 0 ? fields : { [fallback]: errorText(e) };
};

const envelope = z.object({
  error: z.object({ code: z.string(), message: z.string(), fields: z.record(z.string(), z.string()).optional() }),
});

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The page's CSRF token (the server's <meta name="csrf-token">), also what a plain HTML form post sends as authenticity_token. */
export function csrfToken(): string | undefined {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content || undefined;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON-encoded, except a FormData body, which is sent as multipart as it is. */
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers (for example Idempotency-Key). */
  headers?: Record<string, string>;
}

/** Same-origin JSON call to the Go API; resolves to the parsed body (undefined for 204) or throws ApiError. */
export async function apiFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiFetchWithHeaders<T>(path, options)).body;
}

/** apiFetch that also answers the response's headers (a page's pagination counts, say). */
export async function apiFetchWithHeaders<T>(
  path: string,
  { method = 'GET', body, signal, headers: extra }: RequestOptions = {},
): Promise<{ body: T; headers: Headers }> {
  const headers = new Headers({ ...extra, Accept: 'application/json' });
  const multipart = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !multipart) headers.set('Content-Type', 'application/json');
  const token = MUTATING.has(method) ? csrfToken() : undefined;
  if (token) headers.set('X-CSRF-Token', token);

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : multipart ? (body as FormData) : JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', error instanceof Error ? error.message : String(error));
  }

  const text = await response.text();
  const payload: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const parsed = envelope.safeParse(payload);
    throw parsed.success
      ? new ApiError(response.status, parsed.data.error.code, parsed.data.error.message, payload, parsed.data.error.fields ?? {})
      : new ApiError(response.status, `http_${response.status}`, response.statusText || `HTTP ${response.status}`, payload);
  }
  return { body: payload as T, headers: response.headers };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
