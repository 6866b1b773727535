// Card expiry: "MM / YY" auto-format, two-digit years under 70 are 20YY, must not have passed.

export const EXPIRY_MAX_LENGTH = 9; // "MM / 20YY"

/**
 * Formats what the donor types into "MM / YY". A first digit above 1 is a month on its own ("4" → "04 / ").
 * Deleting (the new value is shorter than the previous one) never re-adds the separator.
 */
export function formatExpiry(raw: string, previous = ''): string {
  const deleting = raw.length < previous.length;
  let digits = raw.replace(/\D/g, '');
  if (digits.length === 1 && Number(digits) > 1) digits = '0' + digits;
  digits = digits.slice(0, 6);
  const mm = digits.slice(0, 2);
  const yy = digits.slice(2);
  if (yy === '') return deleting || mm.length < 2 ? mm : `${mm} / `;
  return `${mm} / ${yy}`.slice(0, EXPIRY_MAX_LENGTH);
}

export interface Expiry { month: number; year: number }

/** Parses "MM / YY", "MM/YY" or "MM/20YY"; null when the format or month is wrong. */
export function parseExpiry(value: string): Expiry | null {
  const m = /^(\d{2})\/(\d{2}|20\d{2})$/.exec(value.replace(/\s/g, ''));
  if (!m) return null;
  const month = Number(m[1]);
  let year = Number(m[2]);
  if (m[2]!.length === 2) year += year < 70 ? 2000 : 1900;
  if (month < 1 || month > 12) return null;
  return { month, year };
}

export type ExpiryError = 'required' | 'invalid' | 'expired';

/** Checks an expiry against now: the card is valid until the end of its month. */
export function checkExpiry(value: string, now: Date = new Date()): ExpiryError | null {
  if (value.trim() === '') return 'required';
  const e = parseExpiry(value);
  if (!e) return 'invalid';
  const y = now.getFullYear();
  const m = now.getMonth() + 1;
  if (e.year < y || (e.year === y && e.month < m)) return 'expired';
  return null;
}
