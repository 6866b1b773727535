// The public form's own tiny fetch helper (the app's client pulls in zod; this page stays light).

import type { CardRule } from './lib/brand';
import type { Money } from './lib/money';

export class PublicApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
    readonly body?: unknown,
  ) {
    super(message);
  }
}

function csrf(): string | undefined {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content || undefined;
}

export async function call<T>(path: string, method: 'GET' | 'POST' = 'GET', body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = method === 'POST' ? csrf() : undefined;
  if (token) headers['X-CSRF-Token'] = token;
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  } catch (e) {
    throw new PublicApiError(0, 'network_error', e instanceof Error ? e.message : String(e));
  }
  const text = await res.text();
  let payload: unknown;
  try {
    payload = text ? JSON.parse(text) : undefined;
  } catch {
    payload = undefined;
  }
  if (!res.ok) {
    const err = (payload as { error?: { code?: string; message?: string; fields?: Record<string, string> } } | undefined)?.error;
    throw new PublicApiError(res.status, err?.code ?? `http_${res.status}`, err?.message ?? res.statusText, err?.fields ?? {}, payload);
  }
  return payload as T;
}

export interface PublicAmount { amount: Money; label: string }
export interface PublicFormField {
  type: string; title: string; label: string; width: 'full' | 'half'; required: boolean; hide_on_mobile: boolean;
  value_related_to: string; options?: string[]; order: number;
}
export interface PublicEvent {
  category: string; format: string; starts_at: string | null; ends_at: string | null; ticket_sales_end: string | null;
  tickets: { name: string; quantity: number | null }[];
}
export interface PublicCampaign {
  uuid: string;
  slug: string;
  title: string;
  description: string;
  type: string;
  currency: string;
  organization_name: string;
  country: string;
  objective: string;
  amounts: PublicAmount[];
  allow_one_time: boolean;
  allow_other_amount: boolean;
  min_other_amount: Money | null;
  limits: { min: Money; max: Money };
  instalments: number;
  instalment_options: number[];
  periodic_increase: { enabled: boolean; percentage: number | null; period_months: number | null; min_percentage: number | null; max_percentage: number | null };
  form_color: string;
  cover_url: string;
  /** Tracking ids, loaded only with the donor's consent (Consent.tsx). */
  analytics?: { pixel_id: string; analytics_id: string; tag_manager_id: string };
  ends_at: string | null;
  event: PublicEvent | null;
  form_fields: PublicFormField[];
  document_types: string[];
  default_recurrency: number;
  /**
   * name, tokenizer_url (the gateway's own origin, where browsers tokenise cards), public_key, optionally accepted_brands
   * (comma-separated), and vault_url with vault_key when a global processor retries declines (the card vault).
   */
  gateway: Record<string, string>;
  /** The card brands the organisation's gateway account takes, with their rules; empty when the gateway could not say. */
  payment_methods?: CardRule[];
  thanks?: { instant?: string };
  /** The off-site bank debit the campaign's processor offers (one-time donations only); absent: cards only. */
  bank_debit?: PublicBankDebit;
  /** False when the organisation cannot take donations now; closed_reason says why (gateway_missing, …). */
  accepting_donations?: boolean;
  closed_reason?: string | null;
}

/** An off-site bank debit (e.g. PSE): the donor picks their bank and approves the payment there. */
export interface PublicBankDebit {
  method: string;
  banks: { code: string; label: string }[];
  person_types: string[];
  id_types: string[];
}

export const campaignPath = (slug: string) => `/api/public/campaigns/${encodeURIComponent(slug)}`;

const started = new Map<string, Promise<PublicCampaign>>();

/** Starts reading the page's campaign before the app renders (main.tsx: beside its messages, answered by the page's
 * preload link), for loadCampaign to take. */
export function startCampaign(slug: string) {
  const p = call<PublicCampaign>(campaignPath(slug));
  p.catch(() => {}); // loadCampaign's caller handles the failure
  started.set(slug, p);
}

/** The campaign: the read startCampaign began, once, else a new one. */
export function loadCampaign(slug: string): Promise<PublicCampaign> {
  const p = started.get(slug);
  started.delete(slug);
  return p ?? call<PublicCampaign>(campaignPath(slug));
}
