/**
 * The activation date as the spec writes it, "month DD, YYYY - HH:mm", with the month named in the reader's
 * language and the clock in the organisation's timezone (the browser's own when the organisation has none or an
 * unknown one).
 */
export function formatActivation(iso: string, locale: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const options: Intl.DateTimeFormatOptions = { month: 'long', day: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat(locale, { ...options, timeZone: timeZone || undefined }).formatToParts(date);
  } catch {
    parts = new Intl.DateTimeFormat(locale, options).formatToParts(date);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('month')} ${part('day')}, ${part('year')} - ${part('hour')}:${part('minute')}`;
}
