// The change-card form's pure logic: the card rules are the public form's own modules (imported, not copied), and
// the brands are the organisation's gateway account's (the detail's gateway.payment_methods), as on the public form.
import { checkCardNumber, cleanNumber, detectBrand, validCvv, type Brand, type CardRule } from '../../donate/lib/brand';
import { checkExpiry, parseExpiry } from '../../donate/lib/expiry';
import { causeMessage } from '../../donate/submit';
import { type CardToken, type CardVault, type GatewayError, requestCardTokens, type Tokenizer } from '../../donate/lib/tokenizer';

export interface CardValues { number: string; expiry: string; cvv: string; holder: string; idType: string; idNumber: string }
export type CardErrors = Partial<Record<keyof CardValues, 'required' | 'invalid' | 'type' | 'expired'>>;

/** Checks the dialog's card by the account's rules (the static table when the gateway gave none). */
export function checkCard(v: CardValues, rules?: CardRule[], now = new Date()): CardErrors {
  const e: CardErrors = {};
  const n = checkCardNumber(v.number, rules);
  if (n) e.number = n;
  const x = checkExpiry(v.expiry, now);
  if (x) e.expiry = x;
  const brand = detectBrand(v.number, rules);
  if (v.cvv.trim() === '') e.cvv = 'required';
  else if (!validCvv(brand, v.cvv.trim(), rules)) e.cvv = 'invalid';
  if (v.holder.trim() === '') e.holder = 'required';
  if (v.idNumber.replace(/\D/g, '').length < 3) e.idNumber = v.idNumber.trim() ? 'invalid' : 'required';
  return e;
}

export type { CardToken, Tokenizer } from '../../donate/lib/tokenizer';

/**
 * Tokenises the card from the browser at the checkout's tokeniser (the connected gateway's, or the processor's a rule
 * routes the campaign to) and, when a global processor retries the campaign's declines, at the card vault too, as the
 * public form does: the number and code go nowhere else.
 */
export async function tokenizeCard(
  v: CardValues, gateway: Tokenizer & { vault?: CardVault | null }, fetcher: typeof fetch = fetch,
): Promise<CardToken> {
  try {
    return await requestCardTokens(gateway, gateway.vault, {
      number: v.number, cvv: v.cvv, expiry: v.expiry, holderName: v.holder, idType: v.idType, idNumber: v.idNumber,
    }, fetcher);
  } catch (e) {
    if (e instanceof Error) throw new Error('tokenize_failed');
    const f = causeMessage(e as GatewayError);
    throw new Error(f.text ?? f.error.key);
  }
}

/** The body of POST …/payment_method: the public form's payment_method shape, with the token and non-secret card facts only. */
export function paymentMethodPayload(v: CardValues, token: CardToken, gateway: { name?: string; payment_methods?: CardRule[] } = {}) {
  const digits = cleanNumber(v.number);
  const exp = parseExpiry(v.expiry)!;
  const brand: Brand = detectBrand(digits, gateway.payment_methods);
  return {
    gateway: { name: gateway.name || 'mercadopago', token: token.id, payment_method_id: token.payment_method_id, vault_token: token.vault_token },
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
