import { call, campaignPath, PublicApiError, type PublicCampaign } from './api';
import { type Brand, cleanNumber } from './lib/brand';
import { type CardToken, type GatewayError, requestCardTokens } from './lib/tokenizer';
import { parseExpiry } from './lib/expiry';
import { toDecimal, type Money } from './lib/money';
import type { FieldError } from './validate';
import type { BankValues, Values } from './validate';


/** A failure to show above the donate button. */
export class SubmitFailure extends Error {
  constructor(readonly error: FieldError, readonly text?: string, readonly fields: Record<string, string> = {}) {
    super(text ?? error.key);
  }
}

const CAUSES: Record<string, FieldError['key']> = {
  '212': 'cause212', '214': 'cause214', '316': 'cause316', '322': 'cause322', '323': 'cause322', '324': 'cause322',
  '325': 'cause325', E301: 'causeE301', E302: 'causeE302', E423: 'causeE423', E702: 'causeE702',
};

/** Maps a gateway error to the spec's message by its first cause code; unknown causes show the gateway's own message. */
export function causeMessage(err: GatewayError): SubmitFailure {
  const first = err.cause?.[0];
  const key = first?.code !== undefined ? CAUSES[String(first.code)] : undefined;
  if (key) return new SubmitFailure({ key });
  return new SubmitFailure({ key: 'submitFailed' }, err.message || first?.description);
}

/**
 * Sends the card to the gateway's tokeniser — with the card vault, the only places the number and security code ever
 * go. When a global processor retries the campaign's declined charges (the form names the vault), the card is
 * tokenised at the vault too, by a module loaded only then; vault_token is absent when it did not answer.
 */
export async function tokenize(c: PublicCampaign, v: Values, idType: string, idNumber: string): Promise<CardToken> {
  const card = {
    number: v.cardNumber, cvv: v.cvv, expiry: v.expiry, idType, idNumber,
    holderName: v.holderName.trim() || `${v.firstName} ${v.lastName}`.trim(),
  };
  const { vault_url: url, vault_key: key } = c.gateway;
  try {
    return await requestCardTokens(c.gateway, url && key ? { url, key, country: c.country } : null, card);
  } catch (e) {
    if (e instanceof Error) throw new SubmitFailure({ key: 'submitFailed' });
    const failure = causeMessage(e as GatewayError);
    reportCardError(c, v.cardNumber, e as GatewayError, failure.text);
    throw failure;
  }
}

/**
 * §8: a tokenisation the gateway refused is reported to error reporting with the card's BIN, last
 * four digits and length — never its number or security code. A failed report is not the donor's concern.
 */
export function reportCardError(c: PublicCampaign, cardNumber: string, err: GatewayError, shown?: string) {
  const digits = cleanNumber(cardNumber);
  if (digits.length < 12) return;
  const code = err.cause?.[0]?.code;
  call(`${campaignPath(c.slug)}/card_errors`, 'POST', {
    bin: digits.slice(0, 6), last_four: digits.slice(-4), length: digits.length,
    code: code === undefined ? '' : String(code).slice(0, 64),
    message: (shown ?? err.message ?? err.cause?.[0]?.description ?? '').replace(/\d[\d -]{11,}/g, '').slice(0, 300),
  }).catch(() => {});
}

/** The API's answer: status approved | planned | in_process, the instant thank-you message with its short codes filled. */
export interface DonationResult {
  status?: string;
  message?: string;
  donation?: { uuid: string; recurrency: number; amount: Money; campaign_title: string; campaign_type: string };
  convert_token?: string;
  /** The thank-you page's signed reference. */
  receipt?: string;
  /** A bank debit's: where the donor approves the payment at their bank. */
  redirect_url?: string;
  /** A bank debit's bank, on the thank-you page. */
  bank_debit?: { bank: string };
}

/** API field paths → the form's fields, to show server-side validation under the right input. */
const SERVER_FIELDS: Record<string, string> = {
  'donor.first_name': 'firstName', 'donor.last_name': 'lastName', 'donor.email': 'email', 'donor.uid_type': 'uidType',
  'donor.uid_number': 'uidNumber', 'payment_method.cardholder_name': 'holderName', 'payment_method.cardholder_id_type': 'holderIdType',
  'payment_method.cardholder_id_number': 'holderIdNumber', 'payment_method.method_id': 'cardNumber', 'payment_method.bin': 'cardNumber',
  'payment_method.last_four': 'cardNumber', 'payment_method.expiration_month': 'expiry', 'payment_method.expiration_year': 'expiry',
  'payment_method.cc_expiration': 'expiry', 'donation.items.0.amount': 'amount', 'donation.items': 'amount',
  'donation.items.0.item_name': 'ticket',
  'payment_method.bank_debit.bank': 'bank', 'payment_method.bank_debit.id_type': 'bankIdType',
  'payment_method.bank_debit.id_number': 'bankIdNumber', 'payment_method.bank_debit.person_type': 'bank',
  'donation.recurrency': 'amount',
};

/**
 * The form's field for an API field path: the fixed ones above, form_fields.{order} → extra.{order}, and the card
 * guard's form_fields.{index}.value (a position in the request) → the extra field sent there.
 */
export function serverField(path: string, sent: { order: number }[]): string | undefined {
  if (SERVER_FIELDS[path]) return SERVER_FIELDS[path];
  const m = /^form_fields\.(\d+)(\.value)?$/.exec(path);
  const order = m && (m[2] ? sent[Number(m[1])]?.order : Number(m[1]));
  return order === null || order === undefined ? undefined : `extra.${order}`;
}

export interface Attempt {
  key: string;
  itemUuid: string;
  fingerprint: string;
}

/** Builds the donation request; card data here is the token and non-secret card facts only. */
export function donationPayload(c: PublicCampaign, v: Values, amount: number, brand: Brand, token: CardToken, attempt: Attempt) {
  const exp = parseExpiry(v.expiry)!;
  const digits = cleanNumber(v.cardNumber);
  const holderIdType = v.notCardholder ? v.holderIdType : v.uidType;
  const holderIdNumber = (v.notCardholder ? v.holderIdNumber : v.uidNumber).replace(/\D/g, '');
  return {
    ...basePayload(c, v, amount, attempt),
    payment_method: {
      gateway: {
        name: c.gateway.name ?? 'mercadopago', token: token.id, payment_method_id: token.payment_method_id, vault_token: token.vault_token,
      },
      method_id: brand,
      bin: digits.slice(0, 6),
      last_four: digits.slice(-4),
      expiration_month: exp.month,
      expiration_year: exp.year,
      cardholder_name: v.holderName.trim() || `${v.firstName} ${v.lastName}`.trim(),
      cardholder_id_type: holderIdType || 'DNI',
      cardholder_id_number: holderIdNumber,
      donor_is_cardholder: !v.notCardholder,
    },
  };
}

/** Builds a one-time donation paid by off-site bank debit: the bank, person type and document; no card. */
export function bankDebitPayload(c: PublicCampaign, v: Values, amount: number, b: BankValues, attempt: Attempt) {
  return {
    ...basePayload(c, { ...v, recurrency: 0 }, amount, attempt),
    payment_method: { bank_debit: { bank: b.bank, person_type: b.personType, id_type: b.idType, id_number: b.idNumber.trim() } },
  };
}

/** What every donation request carries: the donation, the donor, the extra fields and the attempt's key. */
function basePayload(c: PublicCampaign, v: Values, amount: number, attempt: Attempt) {
  const ticket = isTickets(c);
  return {
    donation: {
      recurrency: v.recurrency,
      items: [{
        uuid: attempt.itemUuid, amount: toDecimal(amount, c.currency), item_name: ticket ? v.ticket : c.title,
        quantity: ticket ? v.ticketQuantity : 1,
      }],
      instalments: v.recurrency === 0 && v.instalments > 1 ? v.instalments : undefined,
      periodic_increase: v.recurrency === 1 && v.upgrade ? true : undefined,
    },
    donor: {
      first_name: v.firstName.trim(),
      last_name: v.lastName.trim(),
      email: v.email.trim(),
      uid_type: v.uidType,
      uid_number: v.uidNumber.replace(/\D/g, ''),
    },
    form_fields: c.form_fields
      .map((f) => ({ order: f.order, value: (v.extras[`extra.${f.order}`] ?? '').trim() }))
      .filter((f) => f.value !== ''),
    idempotency_key: attempt.key,
  };
}

/** A tickets campaign with ticket options: the donor buys tickets, the amount is each one's price. */
export const isTickets = (c: PublicCampaign) => c.type === 'tickets' && (c.event?.tickets.length ?? 0) > 0;

export async function postDonation(slug: string, payload: { form_fields: { order: number }[] }, brandName: string): Promise<DonationResult> {
  try {
    const res = await call<DonationResult>(`/d/${encodeURIComponent(slug)}`, 'POST', payload);
    if (res?.status === 'rejected') throw new SubmitFailure({ key: 'rejected' }, res.message);
    return res ?? {};
  } catch (e) {
    if (e instanceof SubmitFailure) throw e;
    if (e instanceof PublicApiError) {
      if (e.code.includes('card_not_allowed')) throw new SubmitFailure({ key: 'cardNotAllowed', values: { card_name: brandName } });
      if (e.status === 0 || e.status >= 500 || !e.message) throw new SubmitFailure({ key: 'submitFailed' });
      const fields: Record<string, string> = {};
      for (const [path, text] of Object.entries(e.fields)) {
        const field = serverField(path, payload.form_fields);
        if (field && !fields[field]) fields[field] = text;
      }
      throw new SubmitFailure({ key: e.code === 'validation_failed' ? 'summary' : 'submitFailed' }, e.code === 'validation_failed' ? undefined : e.message, fields);
    }
    throw new SubmitFailure({ key: 'submitFailed' });
  }
}

export function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}`;
}
