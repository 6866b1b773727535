import { Button as MantineButton, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { DataTable } from '../../components/DataTable';
import { EmptyState } from '../../components/EmptyState';
import { StatusBadge } from '../../components/variants';
import type { CurrentUser } from '../accounts/api';
import { campaignsQuery } from '../campaigns/api';
import { agenciesQuery } from '../agencies/api';
import { LeadsDownload } from '../leads/LeadsDownload';
import { donationsQuery, type DonationListItem } from './api';
import { AmountCell, CardCell } from './cells';
import { fmtDate, frequencyLabel, statusColor, statusLabel } from './labels';
import { DEFAULT_SORT, DONATION_STATUSES, donationsQueryString, PER_PAGE, type DonationsSearch } from './search';
import { PageHeader } from '../../components/PageHeader';
import { DateField } from '../../components/DateFields';

export function DonationsPage({ me, search, onSearch }: { me: CurrentUser; search: DonationsSearch; onSearch: (next: DonationsSearch) => void }) {
  const intl = useIntl();
  // The route's loader has both in the cache.
  const { data, isFetching } = useSuspenseQuery(donationsQuery(search));
  const { data: campaigns } = useSuspenseQuery(campaignsQuery());
  const [q, setQ] = useState(search.q ?? '');
  const pushQ = useDebouncedCallback((v: string) => onSearch({ ...search, q: v || undefined, page: undefined }), 350);
  const set = (patch: Partial<DonationsSearch>) => onSearch({ ...search, ...patch, page: undefined });
  const canExport = me.abilities.includes('export_data');
  // The agencies (active and discarded: their sign-ups stay) for the filter, to whoever runs them.
  const canFilterAgencies = me.abilities.includes('manage_agencies');
  const { data: agencies = [] } = useQuery({ ...agenciesQuery('all'), enabled: canFilterAgencies });

  const columns = useMemo<ColumnDef<DonationListItem, unknown>[]>(
    () => [
      {
        id: 'donor',
        meta: { sortKey: 'donor_name' },
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
        meta: { sortKey: 'amount' },
        header: intl.formatMessage({ id: 'donations.col.amount', defaultMessage: 'Monto' }),
        cell: ({ row }) => <AmountCell amount={row.original.amount} />,
      },
      { id: 'frequency', header: intl.formatMessage({ id: 'donations.col.frequency', defaultMessage: 'Frecuencia' }), cell: ({ row }) => frequencyLabel(intl, row.original.frequency) },
      {
        id: 'status',
        meta: { sortKey: 'status' },
        header: intl.formatMessage({ id: 'donations.col.status', defaultMessage: 'Estado' }),
        cell: ({ row }) => <StatusBadge color={statusColor(row.original.status)}>{statusLabel(intl, row.original.status)}</StatusBadge>,
      },
      { id: 'campaign', header: intl.formatMessage({ id: 'donations.col.campaign', defaultMessage: 'Campaña' }), cell: ({ row }) => <Text size="sm" lineClamp={1}>{row.original.campaign.title}</Text> },
      {
        id: 'acquired_by',
        header: intl.formatMessage({ id: 'donations.col.acquiredBy', defaultMessage: 'Captada por' }),
        cell: ({ row }) => <Text size="sm" lineClamp={1}>{row.original.acquired_by?.name ?? '—'}</Text>,
      },
      {
        id: 'card',
        header: intl.formatMessage({ id: 'donations.col.card', defaultMessage: 'Tarjeta' }),
        cell: ({ row }) => <CardCell card={row.original.payment_method} />,
      },
      { id: 'created_at', meta: { sortKey: 'created_at' }, header: intl.formatMessage({ id: 'donations.col.created', defaultMessage: 'Fecha' }), cell: ({ row }) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{fmtDate(intl, row.original.created_at)}</Text> },
    ],
    [intl],
  );
  const total = data.total;
  const filtered = Boolean(search.status || search.campaign || search.agency || search.frequency || search.from || search.to || search.q);

  return (
    <Stack gap="lg">
      <PageHeader
        title={<FormattedMessage id="donations.title" defaultMessage="Donaciones" />}
        lead={<FormattedMessage id="donations.lead" defaultMessage="Todas las donaciones de tus campañas, con sus donantes y su estado." />}
        action={canExport && (
          <Group gap="sm">
            <LeadsDownload email={me.email} />
            <MantineButton component="a" href={`/manage/api/donations.csv?${donationsQueryString(search, false)}`} download variant="light" color="brand">
              <FormattedMessage id="donations.csv" defaultMessage="Exportar CSV" />
            </MantineButton>
          </Group>
        )}
      />
      <Paper withBorder radius="lg" p="md">
        <TextInput mb="sm"
            label={intl.formatMessage({ id: 'donations.filter.q', defaultMessage: 'Buscar' })}
            placeholder={intl.formatMessage({ id: 'donations.filter.qPlaceholder', defaultMessage: 'Nombre, e-mail o documento' })}
            value={q}
            onChange={(e) => { setQ(e.currentTarget.value); pushQ(e.currentTarget.value); }}
            type="search"
          />
        <SimpleGrid cols={{ base: 2, md: canFilterAgencies ? 6 : 5 }} spacing="sm">
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
            data={campaigns.map((c) => ({ value: c.uuid, label: c.title }))}
            value={search.campaign ?? null}
            onChange={(v) => set({ campaign: v ?? undefined })}
          />
          {canFilterAgencies && (
            <Select
              label={intl.formatMessage({ id: 'donations.filter.agency', defaultMessage: 'Equipo externo' })}
              placeholder={intl.formatMessage({ id: 'donations.filter.all', defaultMessage: 'Todos' })}
              clearable
              searchable
              data={agencies.map((a) => ({ value: a.uuid, label: a.agency_name }))}
              value={search.agency ?? null}
              onChange={(v) => set({ agency: v ?? undefined })}
            />
          )}
          <Select
            label={intl.formatMessage({ id: 'donations.filter.frequency', defaultMessage: 'Frecuencia' })}
            placeholder={intl.formatMessage({ id: 'donations.filter.allFem', defaultMessage: 'Todas' })}
            clearable
            data={[{ value: 'monthly', label: frequencyLabel(intl, 'monthly') }, { value: 'one_time', label: frequencyLabel(intl, 'one_time') }]}
            value={search.frequency ?? null}
            onChange={(v) => set({ frequency: (v as DonationsSearch['frequency']) ?? undefined })}
          />
          <DateField label={intl.formatMessage({ id: 'donations.filter.from', defaultMessage: 'Desde' })} value={search.from} maxDate={search.to} onChange={(from) => set({ from })} />
          <DateField label={intl.formatMessage({ id: 'donations.filter.to', defaultMessage: 'Hasta' })} value={search.to} minDate={search.from} onChange={(to) => set({ to })} />
        </SimpleGrid>
      </Paper>
      <Paper withBorder radius="lg" p={{ base: 'xs', sm: 'md' }}>
        <DataTable
          data={data.donations}
          columns={columns}
          getRowId={(d) => d.uuid}
          rowAttributes={(d) => ({ 'data-donation': d.uuid })}
          minWidth={820}
          busy={isFetching}
          caption={<FormattedMessage id="donations.caption" defaultMessage="{total, plural, one {# donación} other {# donaciones}}" values={{ total }} />}
          sort={{ value: search.sort, fallback: DEFAULT_SORT, onChange: (sort) => onSearch({ ...search, sort, page: undefined }) }}
          pagination={{ page: search.page ?? 1, perPage: PER_PAGE, total, onChange: (p) => onSearch({ ...search, page: p === 1 ? undefined : p }) }}
          empty={
            <EmptyState
              title={filtered ? <FormattedMessage id="donations.empty.filteredTitle" defaultMessage="Ninguna donación coincide con los filtros" /> : <FormattedMessage id="donations.empty.title" defaultMessage="Todavía no recibiste donaciones" />}
              description={filtered ? <FormattedMessage id="donations.empty.filteredBody" defaultMessage="Prueba con otro período, estado o búsqueda." /> : <FormattedMessage id="donations.empty.body" defaultMessage="Cuando alguien done en una de tus campañas, la verás aquí." />}
            />
          }
        />
      </Paper>
    </Stack>
  );
}
