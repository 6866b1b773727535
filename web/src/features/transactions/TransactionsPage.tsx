import { ActionIcon, Anchor, Group, Pagination, Paper, ScrollArea, SimpleGrid, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { apiFetch } from '../../api/client';
import { EmptyState } from '../../components/EmptyState';
import { StatusBadge } from '../../components/variants';
import { LoadError, PageLoader, useRedirectOnSignedOut } from '../accounts/session';
import type { Money } from '../../donate/lib/money';
import { txColor, txStatusLabel } from '../donations/labels';
import { BUCKETS, currentPeriod, rowsQueryString, shiftPeriod, type Bucket, type TransactionsSearch } from './search';

interface BucketSum { count: number; amount: Money }
interface CurrencySummary { currency: string; approved: BucketSum; rejected: BucketSum; pending: BucketSum; refunded: BucketSum; charged_back: BucketSum }
interface Summary { from: string; to: string; currencies: CurrencySummary[] }
interface TxRow {
  uuid: string; date: string; amount: Money; status: string; period: string | null; donation_uuid: string; frequency: string;
  campaign: { title: string }; donor: { first_name: string; last_name: string; email: string }; payment_method: { brand: string; last_four: string } | null;
}
const PER_PAGE = 25;

export function TransactionsPage({ search, onSearch }: { search: TransactionsSearch; onSearch: (s: TransactionsSearch) => void }) {
  const intl = useIntl();
  const period = search.period ?? currentPeriod();
  const summary = useQuery({ queryKey: ['tx', 'summary', period], queryFn: ({ signal }) => apiFetch<Summary>(`/manage/api/payment_transactions/summary/${period}`, { signal }), retry: false });
  const qs = rowsQueryString(search, period, PER_PAGE);
  const rows = useQuery({ queryKey: ['tx', 'rows', qs], queryFn: ({ signal }) => apiFetch<{ transactions: TxRow[]; total: number }>(`/manage/api/payment_transactions?${qs}`, { signal }), retry: false, placeholderData: (p) => p });
  useRedirectOnSignedOut(summary.error);
  const monthLabel = intl.formatDate(`${period}-15T12:00:00`, { month: 'long', year: 'numeric' });
  const bucketLabel = (b: Bucket) => txStatusLabel(intl, b);
  const pick = (status: Bucket, currency: string) =>
    onSearch({ ...search, page: undefined, ...(search.status === status && search.currency === currency ? { status: undefined, currency: undefined } : { status, currency }) });
  const total = rows.data?.total ?? 0;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={1} size="h2"><FormattedMessage id="transactions.title" defaultMessage="Transacciones" /></Title>
          <Text c="dimmed"><FormattedMessage id="transactions.lead" defaultMessage="Lo que se cobró cada mes, por estado y moneda." /></Text>
        </div>
        <Group gap="xs" wrap="nowrap" role="group" aria-label={intl.formatMessage({ id: 'transactions.month', defaultMessage: 'Mes' })}>
          <ActionIcon variant="default" size="lg" onClick={() => onSearch({ period: shiftPeriod(period, -1) })} aria-label={intl.formatMessage({ id: 'transactions.prevMonth', defaultMessage: 'Mes anterior' })}>‹</ActionIcon>
          <input type="month" value={period} max={currentPeriod()} aria-label={intl.formatMessage({ id: 'transactions.month', defaultMessage: 'Mes' })}
            onChange={(e) => e.currentTarget.value && onSearch({ period: e.currentTarget.value })}
            style={{ font: 'inherit', padding: '6px 10px', border: '1px solid var(--mantine-color-gray-4)', borderRadius: 8, minWidth: 170 }} />
          <ActionIcon variant="default" size="lg" disabled={period >= currentPeriod()} onClick={() => onSearch({ period: shiftPeriod(period, 1) })} aria-label={intl.formatMessage({ id: 'transactions.nextMonth', defaultMessage: 'Mes siguiente' })}>›</ActionIcon>
        </Group>
      </Group>

      {summary.isPending ? <PageLoader /> : !summary.data ? <LoadError error={summary.error} /> : summary.data.currencies.length === 0 ? (
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
        {rows.isPending ? <PageLoader /> : !rows.data ? <LoadError error={rows.error} /> : total === 0 ? (
          <Text c="dimmed" size="sm" ta="center" py="lg"><FormattedMessage id="transactions.noRows" defaultMessage="No hay transacciones para mostrar." /></Text>
        ) : (
          <>
            <ScrollArea type="auto">
              <Table striped highlightOnHover verticalSpacing="sm" miw={720} data-testid="transaction-rows">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th><FormattedMessage id="tx.col.date" defaultMessage="Fecha" /></Table.Th>
                    <Table.Th><FormattedMessage id="donations.col.donor" defaultMessage="Donante" /></Table.Th>
                    <Table.Th><FormattedMessage id="tx.col.amount" defaultMessage="Monto" /></Table.Th>
                    <Table.Th><FormattedMessage id="tx.col.status" defaultMessage="Estado" /></Table.Th>
                    <Table.Th><FormattedMessage id="donations.col.campaign" defaultMessage="Campaña" /></Table.Th>
                    <Table.Th><FormattedMessage id="tx.col.card" defaultMessage="Tarjeta" /></Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.data.transactions.map((t) => (
                    <Table.Tr key={t.uuid}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{intl.formatDate(t.date, { day: '2-digit', month: 'short', hour: '2-digit', minute: '2-digit' })}</Table.Td>
                      <Table.Td>
                        <Link to="/manage/donations/$uuid" params={{ uuid: t.donation_uuid }} style={{ fontWeight: 600, fontSize: 14, color: 'var(--mantine-color-brand-8)' }}>{`${t.donor.first_name} ${t.donor.last_name}`.trim() || t.donor.email}</Link>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }} fw={600}>{t.amount.formatted}</Table.Td>
                      <Table.Td><StatusBadge color={txColor(t.status)}>{txStatusLabel(intl, t.status)}</StatusBadge></Table.Td>
                      <Table.Td><Text size="sm" lineClamp={1}>{t.campaign.title}</Text></Table.Td>
                      <Table.Td style={{ textTransform: 'capitalize', whiteSpace: 'nowrap' }}>{t.payment_method ? `${t.payment_method.brand} ···· ${t.payment_method.last_four}` : '—'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
            {total > PER_PAGE && (
              <Group justify="flex-end" mt="sm"><Pagination size="sm" total={Math.ceil(total / PER_PAGE)} value={search.page ?? 1} onChange={(p) => onSearch({ ...search, page: p === 1 ? undefined : p })} /></Group>
            )}
          </>
        )}
      </Paper>
    </Stack>
  );
}
