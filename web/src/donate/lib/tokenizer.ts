import { cleanNumber } from './brand';
import { parseExpiry } from './expiry';

/** The gateway's browser-facing tokeniser, as the API names it: card data goes there, never to Aporta. */
export interface Tokenizer { tokenizer_url?: string; public_key?: string }

export interface CardToken { id: string; payment_method_id?: string }

export interface GatewayError { message?: string; cause?: { code?: string | number; description?: string }[] }

/** What the tokeniser needs of a card; the expiry as typed ("MM / YY"). */
export interface CardInput { number: string; cvv: string; expiry: string; holderName: string; idType: string; idNumber: string }

/**
 * Posts the card to the gateway's tokeniser — the only place the number and security code ever go.
 * Resolves with the token, or rejects with the gateway's error body (empty when it sent none);
 * throws `network` when there is no tokeniser or no answer.
 */
export async function requestCardToken(gateway: Tokenizer, card: CardInput, fetcher: typeof fetch = fetch): Promise<CardToken> {
  const exp = parseExpiry(card.expiry)!;
  if (!gateway.tokenizer_url) throw new Error('network');
  const key = gateway.public_key ? `?public_key=${encodeURIComponent(gateway.public_key)}` : '';
  let res: Response;
  try {
    res = await fetcher(`${gateway.tokenizer_url.replace(/\/$/, '')}/v1/card_tokens${key}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      credentials: 'omit',
      body: JSON.stringify({
        card_number: cleanNumber(card.number),
        security_code: card.cvv.trim(),
        expiration_month: exp.month,
        expiration_year: exp.year,
        cardholder: { name: card.holderName.trim(), identification: { type: card.idType || 'Otro', number: card.idNumber.replace(/\D/g, '') } },
      }),
    });
  } catch {
    throw new Error('network');
  }
  const body = (await res.json().catch(() => ({}))) as CardToken & GatewayError;
  if (!res.ok || !body.id) throw body;
  return body;
}
