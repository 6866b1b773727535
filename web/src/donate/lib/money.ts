// The web's one money type and formatter, mirroring internal/money: integer minor units + currency,
// formatted per §9. Every API answers an amount as Money; format locally only what the API did not send
// (amounts the donor types, chart axes, version-history values).

import type { Money } from '../../api/types.gen';

/** An amount as every API answers it: the type generated from internal/money's JSON shape. */
export type { Money };

interface Style { symbol: string; decimals: number; decimal: string; thousands: string }

const STYLES: Record<string, Style> = {
  ARS: { symbol: '$', decimals: 2, decimal: ',', thousands: '.' },
  UYU: { symbol: '$U', decimals: 2, decimal: ',', thousands: '.' },
  BRL: { symbol: 'R$', decimals: 2, decimal: ',', thousands: '.' },
  PEN: { symbol: 'S/', decimals: 2, decimal: ',', thousands: '.' },
  USD: { symbol: 'US$', decimals: 2, decimal: '.', thousands: ',' },
  MXN: { symbol: '$', decimals: 2, decimal: '.', thousands: ',' },
  CLP: { symbol: '$', decimals: 0, decimal: ',', thousands: '.' },
  COP: { symbol: '$', decimals: 0, decimal: ',', thousands: '.' },
};

function styleOf(currency: string): Style {
  const c = currency.toUpperCase();
  return STYLES[c] ?? { symbol: c, decimals: 2, decimal: ',', thousands: '.' };
}

/** Minor-unit digits the platform uses: 0 for CLP and COP, 2 otherwise. */
export function decimalsOf(currency: string): number {
  return styleOf(currency).decimals;
}

/** "$ 1.234,56" (ARS), "US$ 1,234.56" (USD), "$ 1.234" (CLP), "-R$ 10,00". */
export function formatMoney(minor: number, currency: string): string {
  const s = styleOf(currency);
  const sign = minor < 0 ? '-' : '';
  let digits = String(Math.abs(Math.trunc(minor)));
  if (digits.length <= s.decimals) digits = '0'.repeat(s.decimals - digits.length + 1) + digits;
  const whole = digits.slice(0, digits.length - s.decimals);
  const frac = digits.slice(digits.length - s.decimals);
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, s.thousands);
  return `${sign}${s.symbol ? s.symbol + ' ' : ''}${grouped}${s.decimals > 0 ? s.decimal + frac : ''}`;
}

/** The API's decimal string ("1500.5") to minor units; null if malformed or too precise. */
export function parseDecimal(value: string, currency: string): number | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!m) return null;
  const d = decimalsOf(currency);
  const frac = m[2] ?? '';
  if (frac.length > d) return null;
  return Number(m[1]! + frac.padEnd(d, '0'));
}

/** Minor units to the API's decimal string ("1500.50", "1500" for CLP). */
export function toDecimal(minor: number, currency: string): string {
  const d = decimalsOf(currency);
  if (d === 0) return String(minor);
  const s = String(minor).padStart(d + 1, '0');
  return `${s.slice(0, -d)}.${s.slice(-d)}`;
}

/**
 * Reads an amount the donor typed in the currency's own style ("1.500,50" ARS, "1,500.50" USD, "1500").
 * Returns minor units or null when it is not a number with at most the currency's decimals.
 */
export function parseTypedAmount(value: string, currency: string): number | null {
  const s = styleOf(currency);
  let v = value.replace(/\s/g, '').replace(s.symbol, '');
  if (v === '') return null;
  const thousands = s.thousands === '.' ? /\./g : /,/g;
  // A lone dot in a comma-decimal currency with 1–2 digits after it is taken as the decimal point.
  if (s.decimal === ',' && /^\d+\.\d{1,2}$/.test(v)) v = v.replace('.', ',');
  v = v.replace(thousands, '').replace(s.decimal, '.');
  return parseDecimal(v, currency);
}
