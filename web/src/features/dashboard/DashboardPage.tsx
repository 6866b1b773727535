import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
import { Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { EmptyState } from '../../components/EmptyState';
import type { CurrentUser } from '../accounts/api';
import { agenciesQuery } from '../agencies/api';
import { formatMoney, type Money } from '../../donate/lib/money';
import { campaignsQuery } from '../campaigns/api';
import { AccountStateBanner } from '../documents/AccountStateBanner';
import { organizationQuery } from '../documents/api';
import { reasonsQuery } from '../donations/api';
import { frequencyLabel } from '../donations/labels';
import { dashboardQuery, saveCampaignGuide, type Dashboard } from './api';
import { CampaignGuide } from './CampaignGuide';
import { activePreset, formatConversion, presetRange, PRESETS, type DashboardSearch } from './search';
import { DateField } from '../../components/DateFields';

function Widget({ label, value, hint, testId, tone }: { label: ReactNode; value: ReactNode; hint?: ReactNode; testId: string; tone?: string }) {
  return (
    <Paper withBorder radius="lg" p="md" data-widget={testId}>
      <Text size="xs" c="dimmed" fw={700} tt="uppercase" style={{ letterSpacing: 0.4 }}>{label}</Text>
      <Text fz={{ base: 22, sm: 26 }} fw={800} mt={4} lh={1.2} c={tone} data-value>{value}</Text>
      {hint && <Text size="xs" c="dimmed" mt={4}>{hint}</Text>}
    </Paper>
  );
}

function MoneyList({ items }: { items: Money[] }) {
  if (items.length === 0) return <>{formatMoney(0, 'ARS')}</>;
  return <Stack gap={0}>{items.map((m) => <span key={m.currency}>{m.formatted}</span>)}</Stack>;
}

export function DashboardPage({ me, search, onSearch }: { me: CurrentUser; search: DashboardSearch; onSearch: (s: DashboardSearch) => void }) {
  const intl = useIntl();
  const qc = useQueryClient();
  // The route's loader has all four in the cache.
  const { data } = useSuspenseQuery(dashboardQuery(search));
  const { data: org } = useSuspenseQuery(organizationQuery());
  const { data: campaigns } = useSuspenseQuery(campaignsQuery());
  const { data: reasons } = useSuspenseQuery(reasonsQuery(intl.locale));
  const preset = activePreset(search);
  // The agencies (discarded ones too: their donations stay) to whoever runs them, as on the donations list.
  const canFilterAgencies = me.abilities.includes('manage_agencies');
  const { data: agencies = [] } = useQuery({ ...agenciesQuery('all'), enabled: canFilterAgencies });

  const dismissGuide = () => {
    qc.setQueryData(dashboardQuery(search).queryKey, (d: Dashboard | undefined) => (d ? { ...d, campaign_guide: { ...d.campaign_guide, step: 1, show: false } } : d));
    qc.setQueriesData<Dashboard>({ queryKey: ['dashboard'] }, (d) => (d ? { ...d, campaign_guide: { ...d.campaign_guide, step: 1, show: false } } : d));
    void saveCampaignGuide(1);
  };

  return (
    <Stack gap="lg">
      <div>
        <Text c="dimmed" size="sm" fw={600}><FormattedMessage id="dashboard.eyebrow" defaultMessage="Panel" /></Text>
        <Title order={1} size="h2">{org.name}</Title>
      </div>
      {org.account && <AccountStateBanner account={org.account} />}

      <Paper withBorder radius="lg" p="md" component="form" role="search" aria-label={intl.formatMessage({ id: 'dashboard.filters', defaultMessage: 'Filtros' })} onSubmit={(e) => e.preventDefault()}>
        <Stack gap="sm">
          <SegmentedControl
            fullWidth
            aria-label={intl.formatMessage({ id: 'dashboard.period', defaultMessage: 'Período' })}
            value={preset}
            onChange={(v) => { if (v !== 'custom') onSearch({ ...search, ...(v === '30' ? { from: undefined, to: undefined } : presetRange(Number(v))) }); }}
            data={[
              ...PRESETS.map((p) => ({ value: p, label: p === '365' ? intl.formatMessage({ id: 'dashboard.preset.year', defaultMessage: '12 meses' }) : intl.formatMessage({ id: 'dashboard.preset.days', defaultMessage: '{n} días' }, { n: p }) })),
              { value: 'custom', label: intl.formatMessage({ id: 'dashboard.preset.custom', defaultMessage: 'Otro' }), disabled: preset !== 'custom' },
            ]}
          />
          <SimpleGrid cols={{ base: 1, xs: 2, md: canFilterAgencies ? 5 : 4 }} spacing="sm">
            <DateField label={intl.formatMessage({ id: 'dashboard.from', defaultMessage: 'Desde' })} value={search.from ?? data.period.from} maxDate={search.to ?? data.period.to} onChange={(from) => onSearch({ ...search, from, to: search.to ?? data.period.to })} />
            <DateField label={intl.formatMessage({ id: 'dashboard.to', defaultMessage: 'Hasta' })} value={search.to ?? data.period.to} minDate={search.from ?? data.period.from} onChange={(to) => onSearch({ ...search, to, from: search.from ?? data.period.from })} />
            <Select label={intl.formatMessage({ id: 'dashboard.campaign', defaultMessage: 'Campaña' })} placeholder={intl.formatMessage({ id: 'donations.filter.allFem', defaultMessage: 'Todas' })} clearable searchable
              data={campaigns.map((c) => ({ value: c.uuid, label: c.title }))} value={search.campaign ?? null} onChange={(v) => onSearch({ ...search, campaign: v ?? undefined })} />
            <Select label={intl.formatMessage({ id: 'dashboard.frequency', defaultMessage: 'Frecuencia' })} placeholder={intl.formatMessage({ id: 'donations.filter.allFem', defaultMessage: 'Todas' })} clearable
              data={[{ value: 'monthly', label: frequencyLabel(intl, 'monthly') }, { value: 'one_time', label: frequencyLabel(intl, 'one_time') }]}
              value={search.frequency ?? null} onChange={(v) => onSearch({ ...search, frequency: (v as DashboardSearch['frequency']) ?? undefined })} />
            {canFilterAgencies && (
              <Select label={intl.formatMessage({ id: 'dashboard.agency', defaultMessage: 'Equipo externo' })} placeholder={intl.formatMessage({ id: 'donations.filter.all', defaultMessage: 'Todos' })} clearable searchable
                data={agencies.map((a) => ({ value: a.uuid, label: a.agency_name }))} value={search.agency ?? null} onChange={(v) => onSearch({ ...search, agency: v ?? undefined })} />
            )}
          </SimpleGrid>
        </Stack>
      </Paper>

      <Widgets data={data} pauseLabel={(c) => reasons.pause_reasons.find((r) => r.code === c)?.label ?? c}
        discardLabel={(c) => reasons.discard_reasons.find((r) => r.code === c)?.label ?? c} />
      <CampaignGuide opened={data.campaign_guide.show} onDismiss={dismissGuide} />
    </Stack>
  );
}

function Widgets({ data, pauseLabel, discardLabel }: { data: Dashboard; pauseLabel: (c: string) => string; discardLabel: (c: string) => string }) {
  const intl = useIntl();
  const currency = data.raised[0]?.amount.currency ?? data.series.find((p) => p.raised.length)?.raised[0]?.currency ?? 'ARS';
  const monthly = data.period.granularity === 'month';
  const series = data.series.map((p) => ({
    bucket: intl.formatDate(`${p.bucket}T12:00:00`, monthly ? { month: 'short', year: '2-digit' } : { day: 'numeric', month: 'short' }),
    raised: (p.raised.find((m) => m.currency === currency)?.minor ?? 0),
    donations: p.new_donations,
    visits: p.visits,
  }));
  const noReason = intl.formatMessage({ id: 'dashboard.noReason', defaultMessage: 'Sin motivo' });
  const pauses = data.pause_reasons.map((r) => ({ reason: r.reason ? pauseLabel(r.reason) : noReason, count: r.count }));
  const discards = data.discard_reasons.map((r) => ({ reason: r.reason ? discardLabel(r.reason) : noReason, count: r.count }));
  const raisedLabel = intl.formatMessage({ id: 'dashboard.raised', defaultMessage: 'Total recaudado' });
  const donationsLabel = intl.formatMessage({ id: 'dashboard.newDonations', defaultMessage: 'Nuevas donaciones' });
  const visitsLabel = intl.formatMessage({ id: 'dashboard.visits', defaultMessage: 'Visitas' });
  const countLabel = intl.formatMessage({ id: 'dashboard.count', defaultMessage: 'Donaciones' });
  const txCount = data.raised.reduce((n, r) => n + r.transactions, 0);

  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="md">
        <Widget testId="raised" label={raisedLabel} value={<MoneyList items={data.raised.map((r) => r.amount)} />}
          hint={<>
            <FormattedMessage id="dashboard.raisedHint" defaultMessage="{n, plural, one {# cobro aprobado} other {# cobros aprobados}}" values={{ n: txCount }} />
            {data.processor_fees.length > 0 && (
              <span style={{ display: 'block' }} data-processor-fees>
                <FormattedMessage id="dashboard.processorFees" defaultMessage="Comisiones de procesadores: {amount}"
                  values={{ amount: data.processor_fees.map((m) => m.formatted).join(' · ') }} />
              </span>
            )}
          </>} tone="brand.8" />
        <Widget testId="average" label={intl.formatMessage({ id: 'dashboard.average', defaultMessage: 'Donación promedio' })} value={<MoneyList items={data.average} />} />
        <Widget testId="new_donations" label={donationsLabel} value={intl.formatNumber(data.new_donations)} />
        <Widget testId="conversion" label={intl.formatMessage({ id: 'dashboard.conversion', defaultMessage: 'Conversión' })} value={formatConversion(data.conversion, intl.locale)}
          hint={<FormattedMessage id="dashboard.conversionHint" defaultMessage="Donaciones / visitas" />} />
        <Widget testId="visits" label={visitsLabel} value={intl.formatNumber(data.visits)} />
        <Widget testId="paused" label={intl.formatMessage({ id: 'dashboard.paused', defaultMessage: 'Pausadas' })} value={intl.formatNumber(data.paused_donations)}
          hint={<FormattedMessage id="dashboard.pausedHint" defaultMessage="Sin reanudar en 7 días" />} />
        <Widget testId="discarded" label={intl.formatMessage({ id: 'dashboard.discarded', defaultMessage: 'Dadas de baja' })} value={intl.formatNumber(data.discarded_donations)} tone={data.discarded_donations ? 'red.8' : undefined} />
        <Widget testId="recovered" label={intl.formatMessage({ id: 'dashboard.recovered', defaultMessage: 'Recuperadas' })} value={intl.formatNumber(data.recovered)}
          hint={<FormattedMessage id="dashboard.recoveredHint" defaultMessage="Cobro rechazado, cobrado tras la tarjeta nueva del donante" />} />
        <Widget testId="period" label={intl.formatMessage({ id: 'dashboard.periodLabel', defaultMessage: 'Período' })}
          value={<Text fz="md" fw={700}>{intl.formatDate(`${data.period.from}T12:00:00`, { day: 'numeric', month: 'short' })} – {intl.formatDate(`${data.period.to}T12:00:00`, { day: 'numeric', month: 'short', year: 'numeric' })}</Text>}
          hint={<FormattedMessage id="dashboard.days" defaultMessage="{n, plural, one {# día} other {# días}}" values={{ n: data.period.days }} />} />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper withBorder radius="lg" p="lg">
          <Title order={2} size="h4" mb="md">{raisedLabel} <Text span c="dimmed" fz="sm">({currency})</Text></Title>
          <AreaChart h={240} data={series} dataKey="bucket" series={[{ name: 'raised', label: raisedLabel, color: 'brand.6' }]} curveType="monotone" withDots={false}
            valueFormatter={(v) => formatMoney(v, currency)} yAxisProps={{ width: 90, tickFormatter: (v: number) => formatMoney(v, currency).replace(/[,.]00$/, '') }} gridAxis="y" />
        </Paper>
        <Paper withBorder radius="lg" p="lg">
          <Title order={2} size="h4" mb="md"><FormattedMessage id="dashboard.donationsVisits" defaultMessage="Donaciones y visitas" /></Title>
          <BarChart h={240} data={series} dataKey="bucket" withLegend legendProps={{ verticalAlign: 'bottom' }}
            series={[{ name: 'donations', label: donationsLabel, color: 'brand.6' }, { name: 'visits', label: visitsLabel, color: 'gray.4' }]} gridAxis="y" />
        </Paper>
        <ReasonsCard title={<FormattedMessage id="dashboard.pauseReasons" defaultMessage="Principales motivos de pausa" />} data={pauses} label={countLabel} color="blue.6" testId="pause_reasons" />
        <ReasonsCard title={<FormattedMessage id="dashboard.discardReasons" defaultMessage="Principales motivos de baja" />} data={discards} label={countLabel} color="red.6" testId="discard_reasons" />
      </SimpleGrid>
      {!data.has_campaigns && (
        <Paper withBorder radius="lg" p="lg">
          <EmptyState title={<FormattedMessage id="dashboard.noCampaigns" defaultMessage="Todavía no tienes campañas" />}
            description={<FormattedMessage id="dashboard.noCampaignsBody" defaultMessage="Crea tu primera campaña para empezar a ver donaciones y visitas en este panel." />} />
        </Paper>
      )}
    </Stack>
  );
}

function ReasonsCard({ title, data, label, color, testId }: { title: ReactNode; data: { reason: string; count: number }[]; label: string; color: string; testId: string }) {
  return (
    <Paper withBorder radius="lg" p="lg" data-widget={testId}>
      <Title order={2} size="h4" mb="md">{title}</Title>
      {data.length === 0 ? (
        <Text size="sm" c="dimmed" py="xl" ta="center"><FormattedMessage id="dashboard.noReasons" defaultMessage="Nada que mostrar en este período." /></Text>
      ) : (
        <>
          <BarChart h={Math.max(120, data.length * 44)} data={data} dataKey="reason" orientation="vertical" series={[{ name: 'count', label, color }]}
            yAxisProps={{ width: 150 }} gridAxis="none" withXAxis={false} withBarValueLabel />
          <ul style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
            {data.map((r) => <li key={r.reason} data-reason={r.reason} data-count={r.count}>{r.reason}: {r.count}</li>)}
          </ul>
        </>
      )}
    </Paper>
  );
}
