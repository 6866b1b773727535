import { Anchor, Group, Text } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';

/** A receipt number as its PDF shows it (eight digits). */
export const receiptNumber = (n: number) => String(n).padStart(8, '0');

/** The years of the charges that have a receipt, newest first: the yearly summaries there are. */
export function receiptYears(charges: { date: string; receipt?: number | null }[]): number[] {
  const years = new Set(charges.filter((c) => c.receipt).map((c) => new Date(c.date).getFullYear()));
  return [...years].sort((a, b) => b - a);
}

/** The PDF of a receipt or a summary, in the reader's language (the server writes it). */
const withLocale = (href: string, locale: string) => `${href}?locale=${encodeURIComponent(locale.slice(0, 2))}`;

/** Downloads one receipt; its visible text is its accessible name. */
export function ReceiptLink({ href, number }: { href: string; number: number }) {
  const intl = useIntl();
  return (
    <Anchor href={withLocale(href, intl.locale)} download size="sm" data-testid="receipt-pdf">
      <FormattedMessage id="receipt.download" defaultMessage="Recibo {number} (PDF)" values={{ number: receiptNumber(number) }} />
    </Anchor>
  );
}

/** Downloads the donor's yearly summaries, one link per year with receipts. */
export function YearSummaries({ years, href }: { years: number[]; href: (year: number) => string }) {
  const intl = useIntl();
  if (years.length === 0) return null;
  return (
    <Group gap="sm" wrap="wrap" data-testid="receipt-summaries">
      <Text size="sm" fw={600}><FormattedMessage id="receipt.summaries" defaultMessage="Resumen anual:" /></Text>
      {years.map((y) => (
        <Anchor key={y} href={withLocale(href(y), intl.locale)} download size="sm" data-testid="receipt-summary">
          <FormattedMessage id="receipt.summary" defaultMessage="Donaciones {year} (PDF)" values={{ year: String(y) }} />
        </Anchor>
      ))}
    </Group>
  );
}
