import { Text } from '@mantine/core';
import type { IntlShape } from 'react-intl';
import { StatusBadge } from '../../components/variants';
import type { Money } from '../../donate/lib/money';
import { txColor, txStatusLabel } from './labels';

/** Table cells shared by the donations, transactions and donation detail tables. */

export const AmountCell = ({ amount }: { amount: Money }) => (
  <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
    {amount.formatted}
  </Text>
);

export const CardCell = ({ card }: { card: { brand: string; last_four: string } | null }) => (
  <Text size="sm" tt="capitalize" style={{ whiteSpace: 'nowrap' }}>
    {card ? `${card.brand} ···· ${card.last_four}` : '—'}
  </Text>
);

export const TxStatusCell = ({ intl, status }: { intl: IntlShape; status: string }) => <StatusBadge color={txColor(status)}>{txStatusLabel(intl, status)}</StatusBadge>;
