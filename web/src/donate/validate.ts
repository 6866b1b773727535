import { type Brand, type CardRule, brandName, checkCardNumber, detectBrand, usable, validCvv } from './lib/brand';
import { checkExpiry } from './lib/expiry';
import { parseTypedAmount } from './lib/money';
import type { m } from './messages';

export interface Values {
  recurrency: 0 | 1;
  amountChoice: number | 'other';
  otherAmount: string;
  upgrade: boolean;
  instalments: number;
  cardNumber: string;
  expiry: string;
  cvv: string;
  holderName: string;
  notCardholder: boolean;
  holderIdType: string;
  holderIdNumber: string;
  firstName: string;
  lastName: string;
  email: string;
  uidType: string;
  uidNumber: string;
  extras: Record<string, string>;
  /** Tickets campaigns: the ticket option's name and how many. */
  ticket: string;
  ticketQuantity: number;
}

/** An off-site bank debit's fields (BankDebit.tsx). */
export interface BankValues { bank: string; personType: string; idType: string; idNumber: string }

/** The bank debit's own checks; the server checks the bank's list and the number's check digit again. */
export function validateBank(b: BankValues): Errors {
  const e: Errors = {};
  if (b.bank === '') e.bank = { key: 'required' };
  if (b.idType === '') e.bankIdType = { key: 'required' };
  if (b.idNumber.trim() === '') e.bankIdNumber = { key: 'required' };
  else if (digits(b.idNumber).length < 3) e.bankIdNumber = { key: 'documentInvalid' };
  return e;
}

/** The card's fields, which a bank debit does not ask. */
export const CARD_FIELDS = ['cardNumber', 'expiry', 'cvv', 'holderName', 'holderIdType', 'holderIdNumber'];

export type MessageKey = keyof typeof m;
export interface FieldError { key: MessageKey; values?: Record<string, string>; /** The server's own text, shown instead. */ text?: string }
export type Errors = Partial<Record<string, FieldError>>;

/** The order fields appear in, for focusing the first error. */
export const FIELD_ORDER = [
  'amount', 'otherAmount', 'firstName', 'lastName', 'email', 'uidType', 'uidNumber', 'cardNumber', 'expiry', 'cvv',
  'holderName', 'holderIdType', 'holderIdNumber', 'bank', 'bankIdType', 'bankIdNumber',
];

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface Context {
  presets: number[]; // minor units
  currency: string;
  min: number;
  max: number;
  minOther: number | null;
  format: (minor: number) => string;
  brand: Brand;
  /** The campaign's gateway account's card rules; absent or empty: the static table. */
  rules?: CardRule[];
  extras: { key: string; type: string; required: boolean }[];
  now?: Date;
}

/** The chosen amount in minor units, or null. */
export function chosenAmount(v: Values, ctx: Pick<Context, 'presets' | 'currency'>): number | null {
  if (v.amountChoice === 'other') return parseTypedAmount(v.otherAmount, ctx.currency);
  return ctx.presets[v.amountChoice] ?? null;
}

const digits = (s: string) => s.replace(/\D/g, '');

export function validate(v: Values, ctx: Context): Errors {
  const e: Errors = {};
  const amount = chosenAmount(v, ctx);
  const amountField = v.amountChoice === 'other' ? 'otherAmount' : 'amount';
  if (v.amountChoice === 'other' && v.otherAmount.trim() === '') e.otherAmount = { key: 'required' };
  else if (amount === null) e[amountField] = { key: 'invalidAmount' };
  else {
    const min = v.amountChoice === 'other' && ctx.minOther !== null ? Math.max(ctx.min, ctx.minOther) : ctx.min;
    if (amount < min) e[amountField] = { key: 'minAmount', values: { amount: ctx.format(min) } };
    else if (amount > ctx.max) e[amountField] = { key: 'maxAmount', values: { amount: ctx.format(ctx.max) } };
  }

  const number = checkCardNumber(v.cardNumber, ctx.rules);
  const known = detectBrand(v.cardNumber);
  if (number === 'required') e.cardNumber = { key: 'cardNumberRequired' };
  // A brand the static table knows but the account's rules do not take: the account refuses it.
  else if (number === 'type' && usable(ctx.rules) && known !== 'unknown') e.cardNumber = { key: 'cardNotAllowed', values: { card_name: brandName(known) } };
  else if (number === 'type') e.cardNumber = { key: 'cardTypeRequired' };
  else if (number) e.cardNumber = { key: 'cardNumberInvalid' };

  const expiry = checkExpiry(v.expiry, ctx.now);
  if (expiry === 'required') e.expiry = { key: 'expiryRequired' };
  else if (expiry === 'expired') e.expiry = { key: 'expiryPast' };
  else if (expiry) e.expiry = { key: 'expiryInvalid' };

  if (v.cvv === '') e.cvv = { key: 'cvvRequired' };
  else if (!validCvv(ctx.brand, v.cvv, ctx.rules)) e.cvv = { key: 'cvvInvalid' };

  if (v.holderName.trim() === '') e.holderName = { key: 'required' };
  if (v.firstName.trim() === '') e.firstName = { key: 'required' };
  if (v.lastName.trim() === '') e.lastName = { key: 'required' };
  if (v.email.trim() === '') e.email = { key: 'required' };
  else if (!EMAIL_RE.test(v.email.trim())) e.email = { key: 'emailInvalid' };
  if (v.uidType === '') e.uidType = { key: 'required' };
  if (v.uidNumber.trim() === '') e.uidNumber = { key: 'required' };
  else if (digits(v.uidNumber).length < 3) e.uidNumber = { key: 'documentInvalid' };
  if (v.notCardholder) {
    if (v.holderIdType === '') e.holderIdType = { key: 'required' };
    if (v.holderIdNumber.trim() === '') e.holderIdNumber = { key: 'required' };
    else if (digits(v.holderIdNumber).length < 3) e.holderIdNumber = { key: 'documentInvalid' };
  }
  for (const f of ctx.extras) {
    const val = (v.extras[f.key] ?? '').trim();
    const empty = f.type === 'checkbox' ? val !== 'true' : val === '';
    if (empty) {
      if (f.required) e[f.key] = { key: 'required' };
      continue;
    }
    const error = extraError(f.type, val, ctx.now ?? new Date());
    if (error) e[f.key] = { key: error };
  }
  return e;
}

const PHONE_RE = /^\+?[0-9 ().-]+$/;

/** The format check of an extra field's answer, as the server does it (api/donation/fields.go). */
function extraError(type: string, val: string, now: Date): MessageKey | null {
  switch (type) {
    case 'alt_email':
      return EMAIL_RE.test(val) ? null : 'emailInvalid';
    case 'birthday': {
      const d = /^\d{4}-\d{2}-\d{2}$/.test(val) ? new Date(`${val}T00:00:00Z`) : null;
      return d && !Number.isNaN(d.getTime()) && d < now && d.getUTCFullYear() >= now.getFullYear() - 120 ? null : 'birthdayInvalid';
    }
    case 'cellphone': case 'cellphone_bundle': case 'phone': case 'phone_bundle': {
      const n = digits(val).length;
      return PHONE_RE.test(val) && n >= 6 && n <= 15 ? null : 'phoneInvalid';
    }
  }
  return null;
}
