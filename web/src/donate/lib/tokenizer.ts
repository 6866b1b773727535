import { cleanNumber } from './brand';
import type { CardInput } from './card';
import { parseExpiry } from './expiry';

/**
 * The gateway's browser-facing tokeniser, as the API names it: card data goes there, never to Aporta. name is the
 * gateway (mercadopago when absent), whose own API the tokeniser speaks.
 */
export interface Tokenizer { name?: string; tokenizer_url?: string; public_key?: string }

/** A gateway's card token; vault_token is the same card's at the card vault, for the processor that retries declines. */
export interface CardToken { id: string; payment_method_id?: string; vault_token?: string }

export interface GatewayError { message?: string; cause?: { code?: string | number; description?: string }[] }

/**
 * Posts the card to the gateway's tokeniser — the only place the number and security code ever go.
 * Resolves with the token, or rejects with the gateway's error body (empty when it sent none);
 * throws `network` when there is no tokeniser or no answer.
 */
export async function requestCardToken(gateway: Tokenizer, card: CardInput, fetcher: typeof fetch = fetch): Promise<CardToken> {
  const exp = parseExpiry(card.expiry)!;
  if (!gateway.tokenizer_url) throw new Error('network');
  if (gateway.name === 'centralpos') return centralPosToken(gateway, card, exp, fetcher);
  if (gateway.name === 'dlocal') return dLocalToken(gateway, card, exp, fetcher);
  const key = gateway.public_key ? `?public_key=${encodeURIComponent(gateway.public_key)}` : '';
  const { res, body } = await postToTokenizer<CardToken & GatewayError>(gateway, `/v1/card_tokens${key}`, {}, {
    card_number: cleanNumber(card.number),
    security_code: card.cvv.trim(),
    expiration_month: exp.month,
    expiration_year: exp.year,
    cardholder: { name: card.holderName.trim(), identification: { type: card.idType || 'Otro', number: card.idNumber.replace(/\D/g, '') } },
  }, fetcher);
  if (!res.ok || !body.id) throw body;
  return body as CardToken;
}

/** The card vault a checkout names when a global processor retries its declines, with the organisation's country. */
export interface CardVault { url: string; key: string; country: string }

/**
 * The card's token at the gateway and, when a checkout names the card vault, the same card's there (vault_token, absent
 * when the vault did not answer: the card then serves without a retry) — both straight from the browser, on the public
 * form and on every later card change alike. The vault's module is loaded only then. Rejects as requestCardToken does.
 */
export async function requestCardTokens(
  gateway: Tokenizer, vault: CardVault | null | undefined, card: CardInput, fetcher: typeof fetch = fetch,
): Promise<CardToken> {
  const atVault = vault
    ? import('./vault').then((m) => m.vaultToken(vault, vault.country, card, fetcher)).catch(() => null)
    : Promise.resolve(null);
  const token = await requestCardToken(gateway, card, fetcher);
  const vaultToken = await atVault;
  return vaultToken ? { ...token, vault_token: vaultToken } : token;
}

/**
 * POSTs a JSON body to the gateway's tokeniser at path, without our cookies: the answer and its parsed body (empty
 * when it sent none). Throws `network` when there is no answer.
 */
async function postToTokenizer<T>(
  gateway: Tokenizer, path: string, headers: Record<string, string>, body: unknown, fetcher: typeof fetch,
): Promise<{ res: Response; body: Partial<T> }> {
  let res: Response;
  try {
    res = await fetcher(`${gateway.tokenizer_url!.replace(/\/$/, '')}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
      credentials: 'omit',
      body: JSON.stringify(body),
    });
  } catch {
    throw new Error('network');
  }
  return { res, body: (await res.json().catch(() => ({}))) as Partial<T> };
}

/** CentralPos's refusal codes as the form's messages know them (MercadoPago's cause codes, submit.ts). */
const CENTRALPOS_CAUSES: Record<string, string> = {
  invalid_number: 'E301', invalid_cvc: 'E302', invalid_expiry: '325', invalid_holder_name: '316',
};

interface CentralPosCard { brand?: string; funding?: string }

/** Aporta's brand for CentralPos's network and funding: a Visa debit card is debvisa, as the server names it. */
export function centralPosBrand(card: CentralPosCard): string | undefined {
  if (card.funding === 'debit') {
    if (card.brand === 'visa' || card.brand === 'elo') return `deb${card.brand}`;
    if (card.brand === 'mastercard') return 'debmaster';
  }
  return card.brand;
}

/** POST {tokenizer}/tokens with the merchant's publishable key: CentralPos's own tokeniser. */
async function centralPosToken(
  gateway: Tokenizer, card: CardInput, exp: { month: number; year: number }, fetcher: typeof fetch,
): Promise<CardToken> {
  const { res, body } = await postToTokenizer<{ id: string; card: CentralPosCard; error: { code?: string; message?: string } }>(
    gateway, '/tokens', { 'X-Publishable-Key': gateway.public_key ?? '' }, {
      number: cleanNumber(card.number),
      cvc: card.cvv.trim(),
      exp_month: exp.month,
      exp_year: exp.year,
      holder: { name: card.holderName.trim(), document: { type: card.idType || 'Otro', number: card.idNumber.replace(/\D/g, '') } },
    }, fetcher);
  if (!res.ok || !body.id) {
    const code = body.error?.code ?? '';
    const err: GatewayError = { message: body.error?.message, cause: [{ code: CENTRALPOS_CAUSES[code] ?? code }] };
    throw err;
  }
  return { id: body.id, payment_method_id: centralPosBrand(body.card ?? {}) };
}

/** dLocal names the field a card fails on; the form's messages know them by MercadoPago's cause codes (submit.ts). */
const DLOCAL_FIELDS: Record<string, string> = {
  'card.number': 'E301', 'card.cvv': 'E302', 'card.expiration_month': '325', 'card.holder_name': '316',
};

/**
 * POST {tokenizer}/tokens with the merchant's public key: the integrated-payments processor's own tokeniser
 * (dLocal-style smart fields). Its refusal names the failing field; an unknown one shows dLocal's own message.
 */
async function dLocalToken(
  gateway: Tokenizer, card: CardInput, exp: { month: number; year: number }, fetcher: typeof fetch,
): Promise<CardToken> {
  const { res, body } = await postToTokenizer<{ token: string; card: { brand?: string }; message: string; param: string }>(
    gateway, '/tokens', { 'X-Public-Key': gateway.public_key ?? '' }, {
      card: {
        holder_name: card.holderName.trim(), number: cleanNumber(card.number), cvv: card.cvv.trim(),
        expiration_month: exp.month, expiration_year: exp.year,
      },
    }, fetcher);
  if (!res.ok || !body.token) {
    const err: GatewayError = { message: body.message, cause: [{ code: DLOCAL_FIELDS[body.param ?? ''] ?? body.param, description: body.message }] };
    throw err;
  }
  return { id: body.token, payment_method_id: body.card?.brand };
}

/** Minor-unit donation limits. */
export interface AmountLimits { min: number; max: number }

interface PaymentMethodLimits { payment_type_id?: string; status?: string; min_allowed_amount?: number | null; max_allowed_amount?: number | null }

const CARD_TYPES = ['credit_card', 'debit_card', 'prepaid_card'];

/**
 * Asks the gateway's public API (GET /v1/payment_methods with the public key) for its card
 * payment limits: the widest range any active card method takes, as the server's adapter reads it.
 * Null when the gateway does not answer or states none, so the form keeps its limits.
 */
export async function fetchAmountLimits(
  gateway: Tokenizer, toMinor: (major: number) => number | null, fetcher: typeof fetch = fetch,
): Promise<AmountLimits | null> {
  if (!gateway.tokenizer_url) return null;
  if (gateway.name === 'centralpos') return centralPosLimits(gateway, fetcher);
  if (gateway.name === 'dlocal') return null; // the processor's range comes with the form (limits), checked by the server too
  const key = gateway.public_key ? `?public_key=${encodeURIComponent(gateway.public_key)}` : '';
  try {
    const res = await fetcher(`${gateway.tokenizer_url.replace(/\/$/, '')}/v1/payment_methods${key}`, {
      headers: { Accept: 'application/json' }, credentials: 'omit',
    });
    if (!res.ok) return null;
    const methods = (await res.json()) as PaymentMethodLimits[];
    let out: AmountLimits | null = null;
    for (const m of Array.isArray(methods) ? methods : []) {
      if (m.status !== 'active' || !CARD_TYPES.includes(m.payment_type_id ?? '')) continue;
      const min = m.min_allowed_amount == null ? null : toMinor(m.min_allowed_amount);
      const max = m.max_allowed_amount == null ? null : toMinor(m.max_allowed_amount);
      if (min === null || max === null || max < min) continue;
      out = out ? { min: Math.min(out.min, min), max: Math.max(out.max, max) } : { min, max };
    }
    return out;
  } catch {
    return null;
  }
}

/** CentralPos states the merchant's limits in minor units (GET {tokenizer}/card_brands with the publishable key). */
async function centralPosLimits(gateway: Tokenizer, fetcher: typeof fetch): Promise<AmountLimits | null> {
  try {
    const res = await fetcher(`${gateway.tokenizer_url!.replace(/\/$/, '')}/card_brands`, {
      headers: { Accept: 'application/json', 'X-Publishable-Key': gateway.public_key ?? '' }, credentials: 'omit',
    });
    if (!res.ok) return null;
    const body = (await res.json()) as { min_amount?: number; max_amount?: number };
    const { min_amount: min, max_amount: max } = body;
    return Number.isInteger(min) && Number.isInteger(max) && max! >= min! ? { min: min!, max: max! } : null;
  } catch {
    return null;
  }
}
