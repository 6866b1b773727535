// The change-card form's pure logic: the card rules are the public form's own modules (imported, not copied).
import { checkCardNumber, cleanNumber, detectBrand, validCvv, type Brand } from '../../donate/lib/brand';
import { checkExpiry, parseExpiry } from '../../donate/lib/expiry';
import { causeMessage } from '../../donate/submit';

export interface CardValues { number: string; expiry: string; cvv: string; holder: string; idType: string; idNumber: string }
export type CardErrors = Partial<Record<keyof CardValues, 'required' | 'invalid' | 'type' | 'expired'>>;

export function checkCard(v: CardValues, now = new Date()): CardErrors {
  const e: CardErrors = {};
  const n = checkCardNumber(v.number);
  if (n) e.number = n;
  const x = checkExpiry(v.expiry, now);
  if (x) e.expiry = x;
  const brand = detectBrand(v.number);
  if (v.cvv.trim() === '') e.cvv = 'required';
  else if (!validCvv(brand, v.cvv.trim())) e.cvv = 'invalid';
  if (v.holder.trim() === '') e.holder = 'required';
  if (v.idNumber.replace(/\D/g, '').length < 3) e.idNumber = v.idNumber.trim() ? 'invalid' : 'required';
  return e;
}

export interface CardToken { id: string; payment_method_id?: string }

/** Where the browser tokenises cards (the donation detail names it): the gateway's origin, never ours. */
export interface Tokenizer { tokenizer_url: string; public_key: string }

/** Tokenises the card at the gateway's tokeniser from the browser: the number and code go nowhere else. */
export async function tokenizeCard(v: CardValues, gateway: Tokenizer, fetcher: typeof fetch = fetch): Promise<CardToken> {
  const exp = parseExpiry(v.expiry)!;
  if (!gateway.tokenizer_url) throw new Error('tokenize_failed');
  const key = gateway.public_key ? `?public_key=${encodeURIComponent(gateway.public_key)}` : '';
  let res: Response;
  try {
    res = await fetcher(`${gateway.tokenizer_url.replace(/\/$/, '')}/v1/card_tokens${key}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      credentials: 'omit',
      body: JSON.stringify({
        card_number: cleanNumber(v.number),
        security_code: v.cvv.trim(),
        expiration_month: exp.month,
        expiration_year: exp.year,
        cardholder: { name: v.holder.trim(), identification: { type: v.idType || 'Otro', number: v.idNumber.replace(/\D/g, '') } },
      }),
    });
  } catch {
    throw new Error('tokenize_failed');
  }
  const body = (await res.json().catch(() => ({}))) as CardToken & { message?: string; cause?: { code?: string | number; description?: string }[] };
  if (!res.ok || !body.id) {
    const f = causeMessage(body);
    throw new Error(f.text ?? f.error.key);
  }
  return body;
}

/** The body of POST …/payment_method: the public form's payment_method shape, with the token and non-secret card facts only. */
export function paymentMethodPayload(v: CardValues, token: CardToken, gateway = 'mercadopago') {
  const digits = cleanNumber(v.number);
  const exp = parseExpiry(v.expiry)!;
  const brand: Brand = detectBrand(digits);
  return {
    gateway: { name: gateway, token: token.id, payment_method_id: token.payment_method_id },
    method_id: brand,
    bin: digits.slice(0, 6),
    last_four: digits.slice(-4),
    expiration_month: exp.month,
    expiration_year: exp.year,
    cardholder_name: v.holder.trim(),
    cardholder_id_type: v.idType || 'DNI',
    cardholder_id_number: v.idNumber.replace(/\D/g, ''),
    donor_is_cardholder: false,
  };
}
