import { Button as MantineButton, Group, Pagination, Paper, ScrollArea, Select, SimpleGrid, Stack, Table, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { EmptyState } from '../../components/EmptyState';
import { StatusBadge } from '../../components/variants';
import type { CurrentUser } from '../accounts/api';
import { LoadError, PageLoader, useRedirectOnSignedOut } from '../accounts/session';
import { campaignsQuery } from '../campaigns/api';
import { LeadsDownload } from '../leads/LeadsDownload';
import { donationsQuery, type DonationListItem } from './api';
import { fmtDate, frequencyLabel, statusColor, statusLabel } from './labels';
import { DONATION_STATUSES, donationsQueryString, parseSort, PER_PAGE, toggleSort, type DonationsSearch } from './search';

const SORTABLE: Record<string, string> = { created_at: 'created_at', amount: 'amount', status: 'status', donor: 'donor_name' };

export function DonationsPage({ me, search, onSearch }: { me: CurrentUser; search: DonationsSearch; onSearch: (next: DonationsSearch) => void }) {
  const intl = useIntl();
  const qs = donationsQueryString(search);
  const { data, error, isPending, isFetching } = useQuery(donationsQuery(qs));
  useRedirectOnSignedOut(error);
  const { data: campaigns } = useQuery(campaignsQuery());
  const [q, setQ] = useState(search.q ?? '');
  const pushQ = useDebouncedCallback((v: string) => onSearch({ ...search, q: v || undefined, page: undefined }), 350);
  const set = (patch: Partial<DonationsSearch>) => onSearch({ ...search, ...patch, page: undefined });
  const canExport = me.abilities.includes('export_data');
  const sort = parseSort(search.sort);

  const columns = useMemo<ColumnDef<DonationListItem, unknown>[]>(
    () => [
      {
        id: 'donor',
        header: intl.formatMessage({ id: 'donations.col.donor', defaultMessage: 'Donante' }),
        cell: ({ row }) => (
          <Stack gap={0} miw={160}>
            <Link to="/manage/donations/$uuid" params={{ uuid: row.original.uuid }} style={{ fontWeight: 600, fontSize: 14, color: 'var(--mantine-color-brand-8)' }}>
              {`${row.original.donor.first_name} ${row.original.donor.last_name}`.trim() || row.original.donor.email}
            </Link>
            <Text size="xs" c="dimmed">{row.original.donor.email}</Text>
          </Stack>
        ),
      },
      {
        id: 'amount',
        header: intl.formatMessage({ id: 'donations.col.amount', defaultMessage: 'Monto' }),
        cell: ({ row }) => <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>{row.original.amount.formatted}</Text>,
      },
      { id: 'frequency', header: intl.formatMessage({ id: 'donations.col.frequency', defaultMessage: 'Frecuencia' }), cell: ({ row }) => frequencyLabel(intl, row.original.frequency) },
      {
        id: 'status',
        header: intl.formatMessage({ id: 'donations.col.status', defaultMessage: 'Estado' }),
        cell: ({ row }) => <StatusBadge color={statusColor(row.original.status)}>{statusLabel(intl, row.original.status)}</StatusBadge>,
      },
      { id: 'campaign', header: intl.formatMessage({ id: 'donations.col.campaign', defaultMessage: 'Campaña' }), cell: ({ row }) => <Text size="sm" lineClamp={1}>{row.original.campaign.title}</Text> },
      {
        id: 'card',
        header: intl.formatMessage({ id: 'donations.col.card', defaultMessage: 'Tarjeta' }),
        cell: ({ row }) => (row.original.payment_method ? <Text size="sm" style={{ whiteSpace: 'nowrap' }} tt="capitalize">{row.original.payment_method.brand} ···· {row.original.payment_method.last_four}</Text> : '—'),
      },
      { id: 'created_at', header: intl.formatMessage({ id: 'donations.col.created', defaultMessage: 'Fecha' }), cell: ({ row }) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{fmtDate(intl, row.original.created_at)}</Text> },
    ],
    [intl],
  );
  const table = useReactTable({ data: data?.donations ?? [], columns, getCoreRowModel: getCoreRowModel(), manualPagination: true, manualSorting: true });
  const total = data?.total ?? 0;
  const page = search.page ?? 1;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const filtered = Boolean(search.status || search.campaign || search.frequency || search.from || search.to || search.q);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={1} size="h2"><FormattedMessage id="donations.title" defaultMessage="Donaciones" /></Title>
          <Text c="dimmed"><FormattedMessage id="donations.lead" defaultMessage="Todas las donaciones de tus campañas, con sus donantes y su estado." /></Text>
        </div>
        {canExport && (
          <Group gap="sm">
            <LeadsDownload email={me.email} />
            <MantineButton component="a" href={`/manage/api/donations.csv?${donationsQueryString(search, false)}`} download variant="light" color="brand">
              <FormattedMessage id="donations.csv" defaultMessage="Exportar CSV" />
            </MantineButton>
          </Group>
        )}
      </Group>
      <Paper withBorder radius="lg" p="md">
        <TextInput mb="sm"
            label={intl.formatMessage({ id: 'donations.filter.q', defaultMessage: 'Buscar' })}
            placeholder={intl.formatMessage({ id: 'donations.filter.qPlaceholder', defaultMessage: 'Nombre, e-mail o documento' })}
            value={q}
            onChange={(e) => { setQ(e.currentTarget.value); pushQ(e.currentTarget.value); }}
            type="search"
          />
        <SimpleGrid cols={{ base: 2, md: 5 }} spacing="sm">
          <Select
            label={intl.formatMessage({ id: 'donations.filter.status', defaultMessage: 'Estado' })}
            placeholder={intl.formatMessage({ id: 'donations.filter.all', defaultMessage: 'Todos' })}
            clearable
            data={DONATION_STATUSES.map((s) => ({ value: s, label: statusLabel(intl, s) }))}
            value={search.status ?? null}
            onChange={(v) => set({ status: (v as DonationsSearch['status']) ?? undefined })}
          />
          <Select
            label={intl.formatMessage({ id: 'donations.filter.campaign', defaultMessage: 'Campaña' })}
            placeholder={intl.formatMessage({ id: 'donations.filter.allFem', defaultMessage: 'Todas' })}
            clearable
            searchable
            data={(campaigns ?? []).map((c) => ({ value: c.uuid, label: c.title }))}
            value={search.campaign ?? null}
            onChange={(v) => set({ campaign: v ?? undefined })}
          />
          <Select
            label={intl.formatMessage({ id: 'donations.filter.frequency', defaultMessage: 'Frecuencia' })}
            placeholder={intl.formatMessage({ id: 'donations.filter.allFem', defaultMessage: 'Todas' })}
            clearable
            data={[{ value: 'monthly', label: frequencyLabel(intl, 'monthly') }, { value: 'one_time', label: frequencyLabel(intl, 'one_time') }]}
            value={search.frequency ?? null}
            onChange={(v) => set({ frequency: (v as DonationsSearch['frequency']) ?? undefined })}
          />
          <TextInput type="date" label={intl.formatMessage({ id: 'donations.filter.from', defaultMessage: 'Desde' })} value={search.from ?? ''} onChange={(e) => set({ from: e.currentTarget.value || undefined })} />
          <TextInput type="date" label={intl.formatMessage({ id: 'donations.filter.to', defaultMessage: 'Hasta' })} value={search.to ?? ''} onChange={(e) => set({ to: e.currentTarget.value || undefined })} />
        </SimpleGrid>
      </Paper>
      <Paper withBorder radius="lg" p={{ base: 'xs', sm: 'md' }} aria-busy={isFetching}>
        {isPending ? (
          <PageLoader />
        ) : error ? (
          <LoadError error={error} />
        ) : total === 0 ? (
          <EmptyState
            title={filtered ? <FormattedMessage id="donations.empty.filteredTitle" defaultMessage="Ninguna donación coincide con los filtros" /> : <FormattedMessage id="donations.empty.title" defaultMessage="Todavía no recibiste donaciones" />}
            description={filtered ? <FormattedMessage id="donations.empty.filteredBody" defaultMessage="Prueba con otro período, estado o búsqueda." /> : <FormattedMessage id="donations.empty.body" defaultMessage="Cuando alguien done en una de tus campañas, la verás aquí." />}
          />
        ) : (
          <>
            <ScrollArea type="auto">
              <Table striped highlightOnHover verticalSpacing="sm" miw={820}>
                <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>
                  <FormattedMessage id="donations.caption" defaultMessage="{total, plural, one {# donación} other {# donaciones}}" values={{ total }} />
                </Table.Caption>
                <Table.Thead>
                  {table.getHeaderGroups().map((g) => (
                    <Table.Tr key={g.id}>
                      {g.headers.map((h) => {
                        const key = SORTABLE[h.id];
                        const active = key === sort.id;
                        return (
                          <Table.Th key={h.id} scope="col" aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : undefined}>
                            {key ? (
                              <UnstyledButton onClick={() => onSearch({ ...search, sort: toggleSort(search.sort, key), page: undefined })} fw={700} fz="sm">
                                {flexRender(h.column.columnDef.header, h.getContext())} {active ? (sort.desc ? '↓' : '↑') : ''}
                              </UnstyledButton>
                            ) : (
                              flexRender(h.column.columnDef.header, h.getContext())
                            )}
                          </Table.Th>
                        );
                      })}
                    </Table.Tr>
                  ))}
                </Table.Thead>
                <Table.Tbody>
                  {table.getRowModel().rows.map((r) => (
                    <Table.Tr key={r.id} data-donation={r.original.uuid}>
                      {r.getVisibleCells().map((c) => <Table.Td key={c.id}>{flexRender(c.column.columnDef.cell, c.getContext())}</Table.Td>)}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
            <Group justify="space-between" mt="md" wrap="wrap" gap="xs">
              <Text size="sm" c="dimmed" aria-live="polite">
                <FormattedMessage id="table.range" defaultMessage="Mostrando {from}–{to} de {total}" values={{ from: (page - 1) * PER_PAGE + 1, to: Math.min(page * PER_PAGE, total), total }} />
              </Text>
              {pages > 1 && <Pagination total={pages} value={page} onChange={(p) => onSearch({ ...search, page: p === 1 ? undefined : p })} size="sm"
                getControlProps={(c) => ({ 'aria-label': c === 'previous' ? intl.formatMessage({ id: 'table.previous', defaultMessage: 'Anterior' }) : c === 'next' ? intl.formatMessage({ id: 'table.next', defaultMessage: 'Siguiente' }) : undefined })} />}
            </Group>
          </>
        )}
      </Paper>
    </Stack>
  );
}
