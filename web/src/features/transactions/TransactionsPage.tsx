import { ActionIcon, Anchor, Group, Paper, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { DataTable } from '../../components/DataTable';
import { EmptyState } from '../../components/EmptyState';
import { StatusBadge } from '../../components/variants';
import { AmountCell, CardCell, TxStatusCell } from '../donations/cells';
import { txColor, txStatusLabel } from '../donations/labels';
import { summaryQuery, transactionsQuery, type TxRow } from './api';
import { BUCKETS, currentPeriod, shiftPeriod, TX_PER_PAGE, type Bucket, type TransactionsSearch } from './search';
import { PageHeader } from '../../components/PageHeader';
import { MonthField } from '../../components/DateFields';

export function TransactionsPage({ search, onSearch }: { search: TransactionsSearch; onSearch: (s: TransactionsSearch) => void }) {
  const intl = useIntl();
  const period = search.period ?? currentPeriod();
  // The route's loader has both in the cache.
  const summary = useSuspenseQuery(summaryQuery(search));
  const rows = useSuspenseQuery(transactionsQuery(search));
  const monthLabel = intl.formatDate(`${period}-15T12:00:00`, { month: 'long', year: 'numeric' });
  const bucketLabel = (b: Bucket) => txStatusLabel(intl, b);
  const pick = (status: Bucket, currency: string) =>
    onSearch({ ...search, page: undefined, ...(search.status === status && search.currency === currency ? { status: undefined, currency: undefined } : { status, currency }) });
  const total = rows.data.total;
  const columns = useMemo<ColumnDef<TxRow, unknown>[]>(
    () => [
      {
        id: 'date',
        header: intl.formatMessage({ id: 'tx.col.date', defaultMessage: 'Fecha' }),
        cell: ({ row }) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{intl.formatDate(row.original.date, { day: '2-digit', month: 'short', hour: '2-digit', minute: '2-digit' })}</Text>,
      },
      {
        id: 'donor',
        header: intl.formatMessage({ id: 'donations.col.donor', defaultMessage: 'Donante' }),
        cell: ({ row: { original: t } }) => (
          <Link to="/manage/donations/$uuid" params={{ uuid: t.donation_uuid }} style={{ fontWeight: 600, fontSize: 14, color: 'var(--mantine-color-brand-8)' }}>{`${t.donor.first_name} ${t.donor.last_name}`.trim() || t.donor.email}</Link>
        ),
      },
      { id: 'amount', header: intl.formatMessage({ id: 'tx.col.amount', defaultMessage: 'Monto' }), cell: ({ row }) => <AmountCell amount={row.original.amount} /> },
      { id: 'status', header: intl.formatMessage({ id: 'tx.col.status', defaultMessage: 'Estado' }), cell: ({ row }) => <TxStatusCell intl={intl} status={row.original.status} /> },
      { id: 'campaign', header: intl.formatMessage({ id: 'donations.col.campaign', defaultMessage: 'Campaña' }), cell: ({ row }) => <Text size="sm" lineClamp={1}>{row.original.campaign.title}</Text> },
      { id: 'card', header: intl.formatMessage({ id: 'tx.col.card', defaultMessage: 'Tarjeta' }), cell: ({ row }) => <CardCell card={row.original.payment_method} /> },
    ],
    [intl],
  );

  return (
    <Stack gap="lg">
      <PageHeader
        title={<FormattedMessage id="transactions.title" defaultMessage="Transacciones" />}
        lead={<FormattedMessage id="transactions.lead" defaultMessage="Lo que se cobró cada mes, por estado y moneda." />}
        action={<Group gap="xs" wrap="nowrap" role="group" aria-label={intl.formatMessage({ id: 'transactions.month', defaultMessage: 'Mes' })}>
          <ActionIcon variant="default" size="lg" onClick={() => onSearch({ period: shiftPeriod(period, -1) })} aria-label={intl.formatMessage({ id: 'transactions.prevMonth', defaultMessage: 'Mes anterior' })}>‹</ActionIcon>
          <MonthField w={190}
            value={period} max={currentPeriod()} onChange={(p) => onSearch({ period: p })} />
          <ActionIcon variant="default" size="lg" disabled={period >= currentPeriod()} onClick={() => onSearch({ period: shiftPeriod(period, 1) })} aria-label={intl.formatMessage({ id: 'transactions.nextMonth', defaultMessage: 'Mes siguiente' })}>›</ActionIcon>
        </Group>}
      />

      {summary.data.currencies.length === 0 ? (
        <Paper withBorder radius="lg" p="lg">
          <EmptyState title={<FormattedMessage id="transactions.empty" defaultMessage="Sin transacciones en {month}" values={{ month: monthLabel }} />}
            description={<FormattedMessage id="transactions.emptyBody" defaultMessage="Elige otro mes para ver sus cobros." />} />
        </Paper>
      ) : (
        summary.data.currencies.map((c) => (
          <Stack key={c.currency} gap="xs">
            {summary.data.currencies.length > 1 && <Text fw={700}>{c.currency}</Text>}
            <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="sm">
              {BUCKETS.map((b) => {
                const active = search.status === b && search.currency === c.currency;
                return (
                  <UnstyledButton key={b} onClick={() => pick(b, c.currency)} aria-pressed={active} data-bucket={b} data-currency={c.currency}>
                    <Paper withBorder radius="lg" p="md" h="100%" style={{ borderColor: active ? 'var(--mantine-color-brand-6)' : undefined, borderWidth: active ? 2 : 1, background: active ? 'var(--mantine-color-brand-0)' : undefined }}>
                      <Group gap={6}><StatusBadge color={txColor(b)}>{bucketLabel(b)}</StatusBadge></Group>
                      <Text fz={{ base: 18, sm: 22 }} fw={800} mt={8} data-amount>{c[b].amount.formatted}</Text>
                      <Text size="xs" c="dimmed" data-count={c[b].count}><FormattedMessage id="transactions.count" defaultMessage="{n, plural, one {# transacción} other {# transacciones}}" values={{ n: c[b].count }} /></Text>
                    </Paper>
                  </UnstyledButton>
                );
              })}
            </SimpleGrid>
            {(c.processor_fees.minor > 0 || c.commissions.minor > 0) && (
              <Group gap="lg" px="xs" data-fees={c.currency}>
                <Text size="sm" c="dimmed" data-processor-fees>
                  <FormattedMessage id="transactions.processorFees" defaultMessage="Comisiones de procesadores: {amount}" values={{ amount: c.processor_fees.formatted }} />
                </Text>
                <Text size="sm" c="dimmed" data-commissions>
                  <FormattedMessage id="transactions.commissions" defaultMessage="Comisión de Aporta: {amount}" values={{ amount: c.commissions.formatted }} />
                </Text>
              </Group>
            )}
          </Stack>
        ))
      )}

      <Paper withBorder radius="lg" p={{ base: 'xs', sm: 'md' }}>
        <Group justify="space-between" mb="sm" px="xs">
          <Title order={2} size="h4">
            {search.status ? <FormattedMessage id="transactions.rowsFiltered" defaultMessage="{status} de {month}" values={{ status: bucketLabel(search.status), month: monthLabel }} />
              : <FormattedMessage id="transactions.rows" defaultMessage="Todas las transacciones de {month}" values={{ month: monthLabel }} />}
          </Title>
          {search.status && <Anchor component="button" size="sm" onClick={() => onSearch({ period: search.period })}><FormattedMessage id="transactions.clear" defaultMessage="Ver todas" /></Anchor>}
        </Group>
        <DataTable
          data={rows.data.transactions}
          columns={columns}
          getRowId={(t) => t.uuid}
          minWidth={720}
          busy={rows.isFetching}
          testId="transaction-rows"
          pagination={{ page: search.page ?? 1, perPage: TX_PER_PAGE, total, onChange: (p) => onSearch({ ...search, page: p === 1 ? undefined : p }) }}
          empty={<Text c="dimmed" size="sm" ta="center" py="lg"><FormattedMessage id="transactions.noRows" defaultMessage="No hay transacciones para mostrar." /></Text>}
        />
      </Paper>
    </Stack>
  );
}
