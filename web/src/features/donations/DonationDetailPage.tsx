import { Alert, Anchor, Badge, Divider, Group, Paper, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { DataTable } from '../../components/DataTable';
import { DiscardDialog } from '../../components/DiscardDialog';
import { EmptyState } from '../../components/EmptyState';
import { MoreActionsMenu, type MoreAction } from '../../components/MoreActionsMenu';
import { SaveStatusBanner } from '../../components/SaveStatusBanner';
import { showToast } from '../../components/Toasts';
import { useSaveStatus } from '../../components/useSaveStatus';
import { Button, StatusBadge } from '../../components/variants';
import { formatMoney } from '../../donate/lib/money';
import type { CurrentUser } from '../accounts/api';
import { LoadError, PageLoader } from '../accounts/session';
import { donationActions, donationQuery, reasonsQuery, storeDetail, supportQuery, versionsQuery, type DonationDetail, type Donor, type SubmittedDonor, type Transaction } from './api';
import { AmountCell, CardCell, TxStatusCell } from './cells';
import { paymentMethodPayload, tokenizeCard } from './card';
import { CardDialog, ConfirmDialog, DonorDialog, EditDonationDialog, PauseDialog, UpgradeDialog } from './dialogs';
import { fmtDate, frequencyLabel, statusColor, statusLabel, txStatusLabel } from './labels';
import { ReceiptLink, YearSummaries, receiptYears } from './receipts';
import { Crumbs } from '../../components/PageHeader';

type Dialog = null | 'pause' | 'discard' | 'edit' | 'upgrade' | 'removeUpgrade' | 'donor' | 'card' | 'collect' | 'restore' | 'discardDonor' | 'reactivateDonor';

function Row({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" py={6} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
      <Text size="sm" c="dimmed">{label}</Text>
      <Text size="sm" fw={500} ta="right" style={{ overflowWrap: 'anywhere' }}>{children}</Text>
    </Group>
  );
}

function Card({ title, action, children, testId }: { title: ReactNode; action?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Paper withBorder radius="lg" p="lg" data-testid={testId} component="section">
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Title order={2} size="h4">{title}</Title>
        {action}
      </Group>
      {children}
    </Paper>
  );
}

export function DonationDetailPage({ me, uuid }: { me: CurrentUser; uuid: string }) {
  const intl = useIntl();
  const qc = useQueryClient();
  // The route's loader has both in the cache.
  const { data } = useSuspenseQuery(donationQuery(uuid));
  const { data: reasons } = useSuspenseQuery(reasonsQuery(intl.locale));
  const { status, visible, track } = useSaveStatus();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);

  const { donation: d, donor, payment_method: pm } = data;
  const can = (a: string) => me.abilities.includes('manage_donations') && (d.actions as string[]).includes(a);
  const canManage = me.abilities.includes('manage_donations');

  /** Runs an action with the save-status banner; the answer replaces the cached detail; failures rethrow for the dialog. */
  const run = async (fn: () => Promise<DonationDetail | unknown>, ok?: ReactNode) => {
    let failure: unknown;
    const res = await track(async () => {
      try { return await fn(); } catch (e) { failure = e; throw e; }
    });
    if (failure) throw failure;
    if (res && typeof res === 'object' && 'donation' in res) storeDetail(qc, uuid, res as DonationDetail);
    else storeDetail(qc, uuid, undefined);
    if (ok) showToast({ type: 'success', message: ok });
    return res;
  };
  const fail = (e: unknown) => showToast({ type: 'fail', message: e instanceof Error ? e.message : String(e) });

  const name = `${donor.first_name} ${donor.last_name}`.trim() || donor.email;
  const discardLabels = reasons.discard_reasons.map((r) => r.label);

  const more: MoreAction[] = [];
  if (can('change_amount')) more.push({ label: <FormattedMessage id="donation.action.edit" defaultMessage="Editar donación" />, onClick: () => setDialog('edit') });
  if (can('edit_donor')) more.push({ label: <FormattedMessage id="donation.action.donor" defaultMessage="Editar donante" />, onClick: () => setDialog('donor') });
  if (can('change_payment_method')) more.push({ label: <FormattedMessage id="donation.action.card" defaultMessage="Cambiar tarjeta" />, onClick: () => setDialog('card') });
  if (can('discard')) more.push({ label: <FormattedMessage id="donation.action.discard" defaultMessage="Dar de baja" />, onClick: () => setDialog('discard'), destructive: true });

  return (
    <Stack gap="lg">
      <SaveStatusBanner status={status} visible={visible} />
      <Crumbs up={<Anchor component={Link} to="/manage/donations" size="sm"><FormattedMessage id="donation.back" defaultMessage="Donaciones" /></Anchor>} current={name} />
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
        <div>
          <Group gap="sm" wrap="wrap">
            <Title order={1} size="h2">{name}</Title>
            <span data-testid="donation-status"><StatusBadge color={statusColor(d.status)}>{statusLabel(intl, d.status)}</StatusBadge></span>
          </Group>
          <Text c="dimmed" mt={4}>
            <Text span fw={700} c="dark" fz="lg" data-testid="donation-amount">{d.amount.formatted}</Text>{' · '}{frequencyLabel(intl, d.frequency)}{' · '}{d.campaign.title}
          </Text>
        </div>
        <Group gap="sm">
          {can('pause') && <Button variant="outline" onClick={() => setDialog('pause')}><FormattedMessage id="donation.action.pause" defaultMessage="Pausar" /></Button>}
          {can('restore') && <Button onClick={() => setDialog('restore')}><FormattedMessage id="donation.action.restore" defaultMessage="Reanudar" /></Button>}
          {can('collect_payment') && <Button onClick={() => setDialog('collect')}><FormattedMessage id="donation.action.collect" defaultMessage="Cobrar ahora" /></Button>}
          {more.length > 0 && <MoreActionsMenu actions={more} />}
        </Group>
      </Group>

      {d.status === 'paused' && (
        <Alert color="blue" variant="light" title={<FormattedMessage id="donation.paused.title" defaultMessage="Donación pausada" />} data-testid="paused-info">
          <FormattedMessage id="donation.paused.body" defaultMessage="Motivo: {reason}. Pausada desde {since}. Al reanudarla se cobrará en el próximo período."
            values={{ reason: reasons.pause_reasons.find((r) => r.code === d.paused_reason)?.label ?? d.paused_reason ?? '—', since: fmtDate(intl, d.paused_since) }} />
        </Alert>
      )}
      {d.status === 'discarded' && (
        <Alert color="red" variant="light" title={<FormattedMessage id="donation.discarded.title" defaultMessage="Donación dada de baja" />} data-testid="discarded-info">
          <FormattedMessage id="donation.discarded.body" defaultMessage="Motivo: {reason}. Fecha: {date}."
            values={{ reason: reasons.discard_reasons.find((r) => r.code === d.discard_reason)?.label ?? d.discard_reason ?? '—', date: fmtDate(intl, d.discarded_at) }} />
        </Alert>
      )}
      {data.collect && (
        <Alert color={data.collect.approved ? 'green' : 'red'} variant="light" data-testid="collect-result">
          <FormattedMessage id="donation.collect.result" defaultMessage="Cobro del período {period}: {status}" values={{ period: data.collect.period, status: txStatusLabel(intl, data.collect.status) }} />
        </Alert>
      )}

      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        <Card title={<FormattedMessage id="donation.section.donation" defaultMessage="Donación" />} testId="donation-card"
          action={can('change_amount') ? <Button variant="ghost" size="sm" onClick={() => setDialog('edit')}><FormattedMessage id="common.edit" defaultMessage="Editar" /></Button> : undefined}>
          <Row label={<FormattedMessage id="donation.field.amount" defaultMessage="Monto" />}>{d.amount.formatted}</Row>
          <Row label={<FormattedMessage id="donation.field.frequency" defaultMessage="Frecuencia" />}>{frequencyLabel(intl, d.frequency)}</Row>
          <Row label={<FormattedMessage id="donation.field.campaign" defaultMessage="Campaña" />}>{d.campaign.title}</Row>
          {d.recurrence === 1 && <Row label={<FormattedMessage id="donation.field.collectDay" defaultMessage="Día de cobro" />}>{d.collect_last_day ? intl.formatMessage({ id: 'donation.field.lastDay', defaultMessage: 'Último día del mes' }) : d.collect_day ?? '—'}</Row>}
          {d.recurrence === 1 && <Row label={<FormattedMessage id="donation.field.next" defaultMessage="Próximo cobro" />}>{fmtDate(intl, d.next_charge_date)}</Row>}
          {d.instalments > 1 && <Row label={<FormattedMessage id="donation.field.instalments" defaultMessage="Cuotas" />}>{d.instalments}</Row>}
          <Row label={<FormattedMessage id="donation.field.created" defaultMessage="Creada" />}>{fmtDate(intl, d.created_at)}</Row>
        </Card>
        <Card title={<FormattedMessage id="donation.section.donor" defaultMessage="Donante" />} testId="donor-card"
          action={can('edit_donor') ? <Button variant="ghost" size="sm" onClick={() => setDialog('donor')}><FormattedMessage id="common.edit" defaultMessage="Editar" /></Button> : undefined}>
          {donor.discarded && <Badge color="red" variant="light" mb="xs"><FormattedMessage id="donor.discarded" defaultMessage="Donante dado de baja" /></Badge>}
          <Row label={<FormattedMessage id="donor.name" defaultMessage="Nombre" />}>{name}</Row>
          <Row label={<FormattedMessage id="donor.email" defaultMessage="Correo electrónico" />}>{donor.email}</Row>
          <Row label={<FormattedMessage id="donor.document" defaultMessage="Documento" />}>{donor.uid_type} {donor.uid_number || '—'}</Row>
          <Row label={<FormattedMessage id="donor.cellphone" defaultMessage="Celular" />}>{donor.cellphone || donor.phone || '—'}</Row>
          <Row label={<FormattedMessage id="donor.since" defaultMessage="Donante desde" />}>{fmtDate(intl, donor.created_at)}</Row>
          {canManage && (
            <Group justify="flex-end" mt="sm">
              {donor.discarded
                ? <Button variant="outline" size="sm" onClick={() => setDialog('reactivateDonor')}><FormattedMessage id="donor.reactivate" defaultMessage="Reactivar donante" /></Button>
                : <Button variant="ghost" size="sm" onClick={() => setDialog('discardDonor')}><FormattedMessage id="donor.discard" defaultMessage="Dar de baja al donante" /></Button>}
            </Group>
          )}
        </Card>
        <Card title={<FormattedMessage id="donation.section.card" defaultMessage="Medio de pago" />} testId="payment-card"
          action={can('change_payment_method') ? <Button variant="ghost" size="sm" onClick={() => setDialog('card')}><FormattedMessage id="common.change" defaultMessage="Cambiar" /></Button> : undefined}>
          {pm ? (
            <>
              <Row label={<FormattedMessage id="card.brand" defaultMessage="Tarjeta" />}><span style={{ textTransform: 'capitalize' }}>{pm.brand}</span> ···· <span data-testid="card-last-four">{pm.last_four}</span></Row>
              <Row label={<FormattedMessage id="card.expiry" defaultMessage="Vencimiento" />}>{pm.expiry}</Row>
              <Row label={<FormattedMessage id="card.holderShort" defaultMessage="Titular" />}>{pm.holder_name || '—'}</Row>
            </>
          ) : (
            <Text size="sm" c="dimmed"><FormattedMessage id="card.none" defaultMessage="Sin medio de pago activo." /></Text>
          )}
        </Card>
      </SimpleGrid>

      {d.submitted_donor && differsFromDonor(d.submitted_donor, donor) && <SubmittedDonorCard sent={d.submitted_donor} />}

      {d.form_values.length > 0 && (
        <Card title={<FormattedMessage id="donation.section.formValues" defaultMessage="Información adicional del formulario" />} testId="form-values-card">
          {d.form_values.map((v) => (
            <Row key={v.order} label={v.title}>
              {v.type === 'checkbox' ? <FormattedMessage id="donation.formValues.checked" defaultMessage="Sí" />
                : v.type === 'gender' && GENDER_IDS[v.value] ? <FormattedMessage {...GENDER_IDS[v.value]} /> : v.value}
            </Row>
          ))}
        </Card>
      )}

      <Card title={<FormattedMessage id="upgrade.title" defaultMessage="Incremento periódico" />} testId="upgrade-card"
        action={can('upgrade') ? (
          <Group gap="xs">
            {data.upgrade && <Button variant="ghost" size="sm" onClick={() => setDialog('removeUpgrade')}><FormattedMessage id="common.remove" defaultMessage="Quitar" /></Button>}
            <Button variant="outline" size="sm" onClick={() => setDialog('upgrade')}>{data.upgrade ? <FormattedMessage id="common.edit" defaultMessage="Editar" /> : <FormattedMessage id="upgrade.addShort" defaultMessage="Agregar" />}</Button>
          </Group>
        ) : undefined}>
        {data.upgrade ? (
          <Text size="sm" data-testid="upgrade-current">
            <FormattedMessage id="upgrade.current" defaultMessage="{percentage}% cada {period, plural, one {mes} =12 {año} other {# meses}}: de {old} a {new} el {date}{auto, select, true {, automático} other {}}."
              values={{ percentage: data.upgrade.percentage.replace(/\.00$/, ''), period: data.upgrade.period, old: data.upgrade.old_amount.formatted, new: <strong>{data.upgrade.new_amount.formatted}</strong>, date: fmtDate(intl, data.upgrade.next_date), auto: String(data.upgrade.auto) }} />
          </Text>
        ) : (
          <Text size="sm" c="dimmed"><FormattedMessage id="upgrade.none" defaultMessage="Esta donación no tiene incremento periódico." /></Text>
        )}
        {data.upgrade_history.length > 0 && (
          <>
            <Divider my="sm" label={<FormattedMessage id="upgrade.history" defaultMessage="Historial" />} labelPosition="left" />
            <Stack gap={4}>
              {data.upgrade_history.map((h, i) => (
                <Text key={i} size="sm">{fmtDate(intl, h.applied_on)}: {h.old_amount.formatted} → {h.new_amount.formatted}</Text>
              ))}
            </Stack>
          </>
        )}
      </Card>

      <Paper withBorder radius="lg" p="lg">
        <Tabs defaultValue="transactions" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="transactions"><FormattedMessage id="donation.tab.transactions" defaultMessage="Transacciones ({n})" values={{ n: data.transactions.length }} /></Tabs.Tab>
            <Tabs.Tab value="versions"><FormattedMessage id="donation.tab.versions" defaultMessage="Cambios ({n})" values={{ n: data.versions_count }} /></Tabs.Tab>
            <Tabs.Tab value="support"><FormattedMessage id="donation.tab.support" defaultMessage="Soporte" /></Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="transactions"><TransactionsTable data={data} /></Tabs.Panel>
          <Tabs.Panel value="versions"><Versions uuid={uuid} count={data.versions_count} currency={d.amount.currency} /></Tabs.Panel>
          <Tabs.Panel value="support"><Support uuid={uuid} /></Tabs.Panel>
        </Tabs>
      </Paper>

      <PauseDialog opened={dialog === 'pause'} onClose={close} reasons={reasons.pause_reasons} defaultReason={reasons.default_pause_reason}
        onConfirm={async (reason) => { await run(() => donationActions.pause(uuid, reason)); }} />
      <DiscardDialog opened={dialog === 'discard'} onClose={close} reasons={discardLabels}
        onConfirm={async (label) => {
          const code = reasons.discard_reasons.find((r) => r.label === label)?.code ?? label;
          await run(() => donationActions.discard(uuid, code)).catch((e) => { fail(e); throw e; });
        }} />
      <ConfirmDialog opened={dialog === 'restore'} onClose={close} title={<FormattedMessage id="donation.restore.title" defaultMessage="Reanudar donación" />}
        body={<FormattedMessage id="donation.restore.body" defaultMessage="La donación volverá a cobrarse en el próximo período." />}
        confirm={<FormattedMessage id="donation.action.restore" defaultMessage="Reanudar" />} onConfirm={async () => { await run(() => donationActions.restore(uuid)); }} />
      <ConfirmDialog opened={dialog === 'collect'} onClose={close} title={<FormattedMessage id="donation.collect.title" defaultMessage="Cobrar ahora" />}
        body={<FormattedMessage id="donation.collect.body" defaultMessage="Intentaremos cobrar {amount} a la tarjeta activa ahora mismo." values={{ amount: d.amount.formatted }} />}
        confirm={<FormattedMessage id="donation.collect.confirm" defaultMessage="Cobrar" />} onConfirm={async () => { await run(() => donationActions.collect(uuid)); }} />
      {dialog === 'edit' && <EditDonationDialog opened onClose={close} current={d.amount.decimal} currency={d.amount.currency}
        monthly={d.recurrence === 1} collectDay={d.collect_last_day ? null : d.collect_day}
        onConfirm={async (edit) => { await run(() => donationActions.edit(uuid, edit)); }} />}
      {dialog === 'upgrade' && <UpgradeDialog opened onClose={close} upgrade={data.upgrade}
        onConfirm={async (b) => { await run(() => (data.upgrade ? donationActions.editUpgrade(uuid, data.upgrade.id, b) : donationActions.addUpgrade(uuid, b))); }} />}
      <ConfirmDialog opened={dialog === 'removeUpgrade'} onClose={close} title={<FormattedMessage id="upgrade.remove.title" defaultMessage="Quitar incremento periódico" />}
        body={<FormattedMessage id="upgrade.remove.body" defaultMessage="El monto dejará de subir automáticamente." />} destructive
        confirm={<FormattedMessage id="common.remove" defaultMessage="Quitar" />} onConfirm={async () => { if (data.upgrade) await run(() => donationActions.removeUpgrade(uuid, data.upgrade!.id)); }} />
      {dialog === 'donor' && <DonorDialog opened onClose={close} donor={donor} onConfirm={async (v) => { await run(() => donationActions.donor(uuid, v)); }} />}
      <CardDialog opened={dialog === 'card'} onClose={close} donor={donor} rules={data.gateway.payment_methods}
        onConfirm={async (v) => {
          const token = await tokenizeCard(v, data.gateway);
          await run(() => donationActions.paymentMethod(uuid, paymentMethodPayload(v, token, data.gateway)));
        }} />
      <ConfirmDialog opened={dialog === 'discardDonor'} onClose={close} destructive title={<FormattedMessage id="donor.discard.title" defaultMessage="Dar de baja al donante" />}
        body={<FormattedMessage id="donor.discard.body" defaultMessage="Se darán de baja todas sus donaciones. Podrás reactivar al donante, pero sus donaciones dadas de baja no vuelven." />}
        confirm={<FormattedMessage id="donor.discard.confirm" defaultMessage="Dar de baja" />}
        onConfirm={async () => { await run(() => donationActions.discardDonor(donor.uuid, reasons.default_discard_reason || 'donor_request')); }} />
      <ConfirmDialog opened={dialog === 'reactivateDonor'} onClose={close} title={<FormattedMessage id="donor.reactivate" defaultMessage="Reactivar donante" />}
        body={<FormattedMessage id="donor.reactivate.body" defaultMessage="El donante podrá volver a donar y figurar como activo." />}
        confirm={<FormattedMessage id="donor.reactivate.confirm" defaultMessage="Reactivar" />} onConfirm={async () => { await run(() => donationActions.reactivateDonor(donor.uuid)); }} />
    </Stack>
  );
}

function TransactionsTable({ data }: { data: DonationDetail }) {
  const intl = useIntl();
  const base = `/manage/api/donations/${encodeURIComponent(data.donation.uuid)}`;
  const columns: ColumnDef<Transaction, unknown>[] = [
    { id: 'date', header: intl.formatMessage({ id: 'tx.col.date', defaultMessage: 'Fecha' }), cell: ({ row }) => intl.formatDate(row.original.date, { dateStyle: 'medium', timeStyle: 'short' }) },
    { id: 'amount', header: intl.formatMessage({ id: 'tx.col.amount', defaultMessage: 'Monto' }), cell: ({ row }) => <AmountCell amount={row.original.amount} /> },
    { id: 'status', header: intl.formatMessage({ id: 'tx.col.status', defaultMessage: 'Estado' }), cell: ({ row }) => (
      // A decline says why, in words (the gateway's status detail mapped on the server).
      <>
        <TxStatusCell intl={intl} status={row.original.status} />
        {row.original.decline && <Text size="xs" c="dimmed" data-decline>{row.original.decline}</Text>}
      </>
    ) },
    { id: 'period', header: intl.formatMessage({ id: 'tx.col.period', defaultMessage: 'Período' }), cell: ({ row }) => row.original.period ?? '—' },
    { id: 'card', header: intl.formatMessage({ id: 'tx.col.card', defaultMessage: 'Tarjeta' }), cell: ({ row }) => <CardCell card={row.original.payment_method} /> },
    { id: 'receipt', header: intl.formatMessage({ id: 'tx.col.receipt', defaultMessage: 'Recibo' }), cell: ({ row }) => {
      const n = row.original.receipt;
      return n ? <ReceiptLink href={`${base}/receipts/${n}`} number={n} /> : '—';
    } },
  ];
  return (
    <Stack gap="sm">
      <YearSummaries years={receiptYears(data.transactions)} href={(y) => `${base}/summaries/${y}`} />
      <DataTable
        data={data.transactions}
        columns={columns}
        getRowId={(t) => t.uuid}
        minWidth={640}
        testId="donation-transactions"
        empty={<EmptyState title={<FormattedMessage id="donation.tx.empty" defaultMessage="Sin transacciones" />} description={<FormattedMessage id="donation.tx.emptyBody" defaultMessage="Los cobros de esta donación aparecerán aquí." />} />}
      />
    </Stack>
  );
}

const show = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));

type Obj = Record<string, unknown> | null;
/** A readable line for one version: the field's before → after in words where the shape is known. */
function describe(intl: ReturnType<typeof useIntl>, field: string, before: Obj, after: Obj, currency: string): string {
  const money = (minor: unknown) => (typeof minor === 'number' ? formatMoney(minor, currency) : show(minor));
  switch (field) {
    case 'status': {
      const s = (o: Obj) => (o?.status ? statusLabel(intl, String(o.status)) + (o.paused_reason ? ` (${String(o.paused_reason)})` : '') : '—');
      return `${s(before)} → ${s(after)}`;
    }
    case 'payment_method': {
      const c = (o: Obj) => (o ? `${String(o.brand ?? '')} ···· ${String(o.last_four ?? '')} (${String(o.expiry_month ?? '')}/${String(o.expiry_year ?? '')})` : '—');
      return `${c(before)} → ${c(after)}`;
    }
    case 'upgrade':
      return after ? `${Number(after.basis_points ?? 0) / 100}% · ${money(after.old_amount)} → ${money(after.new_amount)}` : '—';
    case 'collect_now':
      return intl.formatMessage({ id: 'donation.versions.collect', defaultMessage: 'Cobro inmediato del período {period}' }, { period: String(after?.period ?? '—') });
    case 'amount':
      return `${money(before?.amount ?? before)} → ${money(after?.amount ?? after)}`;
    case 'collect_day': {
      const day = (v: unknown) => (v === 'last' ? intl.formatMessage({ id: 'donation.field.lastDay', defaultMessage: 'Último día del mes' }) : show(v));
      return `${day(before)} → ${day(after)}`;
    }
    default:
      return `${show(before)} → ${show(after)}`;
  }
}

/** A gender field's stored answers (the donor's gender values), as people read them. */
/** Whether a submission gave data the donor's record does not hold (someone else typed the donor's e-mail, say). */
function differsFromDonor(sent: SubmittedDonor, donor: Donor): boolean {
  return (Object.keys(sent) as (keyof SubmittedDonor)[]).some((k) => (sent[k] ?? '') !== '' && sent[k] !== donor[k]);
}

/** The donor's data as this donation's form submission gave it, shown when it differs from the donor's record. */
function SubmittedDonorCard({ sent }: { sent: SubmittedDonor }) {
  const address = [sent.street, sent.city, sent.state, sent.zipcode].filter(Boolean).join(', ');
  return (
    <Card title={<FormattedMessage id="donation.section.submitted" defaultMessage="Datos enviados con esta donación" />} testId="submitted-donor-card">
      <Text size="sm" c="dimmed" mb="xs">
        <FormattedMessage id="donation.submitted.body" defaultMessage="El formulario recibió estos datos, distintos de los del donante. Los datos del donante solo cambian con «Editar donante»." />
      </Text>
      <Row label={<FormattedMessage id="donor.name" defaultMessage="Nombre" />}>{`${sent.first_name} ${sent.last_name}`.trim() || '—'}</Row>
      <Row label={<FormattedMessage id="donor.email" defaultMessage="Correo electrónico" />}>{sent.email}</Row>
      <Row label={<FormattedMessage id="donor.document" defaultMessage="Documento" />}>{sent.uid_type} {sent.uid_number || '—'}</Row>
      {(sent.cellphone || sent.phone) && <Row label={<FormattedMessage id="donor.cellphone" defaultMessage="Celular" />}>{sent.cellphone || sent.phone}</Row>}
      {address && <Row label={<FormattedMessage id="donor.street" defaultMessage="Dirección" />}>{address}</Row>}
      {sent.gender && GENDER_IDS[sent.gender] && <Row label={<FormattedMessage id="donor.gender" defaultMessage="Género" />}><FormattedMessage {...GENDER_IDS[sent.gender]} /></Row>}
    </Card>
  );
}

const GENDER_IDS: Record<string, { id: string; defaultMessage: string }> = {
  female: { id: 'donation.formValues.gender.female', defaultMessage: 'Femenino' },
  male: { id: 'donation.formValues.gender.male', defaultMessage: 'Masculino' },
  other: { id: 'donation.formValues.gender.other', defaultMessage: 'Otro' },
  unknown: { id: 'donation.formValues.gender.unknown', defaultMessage: 'Prefiere no decirlo' },
};

const FIELD_IDS: Record<string, { id: string; defaultMessage: string }> = {
  status: { id: 'donation.versions.field.status', defaultMessage: 'Estado' },
  payment_method: { id: 'donation.versions.field.payment_method', defaultMessage: 'Medio de pago' },
  upgrade: { id: 'donation.versions.field.upgrade', defaultMessage: 'Incremento periódico' },
  collect_now: { id: 'donation.versions.field.collect_now', defaultMessage: 'Cobro manual' },
  amount: { id: 'donation.versions.field.amount', defaultMessage: 'Monto' },
  donor: { id: 'donation.versions.field.donor', defaultMessage: 'Donante' },
  collect_day: { id: 'donation.versions.field.collect_day', defaultMessage: 'Día de cobro' },
};

function Versions({ uuid, count, currency }: { uuid: string; count: number; currency: string }) {
  const intl = useIntl();
  const { data, error, isPending } = useQuery(versionsQuery(uuid, count));
  if (isPending) return <PageLoader />;
  if (!data) return <LoadError error={error} />;
  if (data.versions.length === 0) return <Text size="sm" c="dimmed"><FormattedMessage id="donation.versions.empty" defaultMessage="Todavía no hubo cambios." /></Text>;
  return (
    <Stack gap="xs" data-testid="donation-versions">
      {data.versions.map((v) => (
        <Paper key={v.uuid} withBorder radius="md" p="sm">
          <Group justify="space-between" wrap="wrap" gap={4}>
            <Text size="sm" fw={600} data-field={v.field}>{FIELD_IDS[v.field] ? intl.formatMessage(FIELD_IDS[v.field]!) : v.field}</Text>
            <Text size="xs" c="dimmed">{intl.formatDate(v.at, { dateStyle: 'medium', timeStyle: 'short' })} · {actorLabel(intl, v.actor_type)}</Text>
          </Group>
          <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }} tt="none">{describe(intl, v.field, v.before as Obj, v.after as Obj, currency)}</Text>
        </Paper>
      ))}
    </Stack>
  );
}

function Support({ uuid }: { uuid: string }) {
  const { data, error, isPending } = useQuery(supportQuery(uuid));
  if (isPending) return <PageLoader />;
  if (!data) return <LoadError error={error} />;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" data-testid="donation-support">
      {Object.entries(data).filter(([, v]) => typeof v !== 'object' || v === null).map(([k, v]) => <Row key={k} label={k}>{show(v)}</Row>)}
    </SimpleGrid>
  );
}

/** Who made a change, in words: a user of the organisation, the donor (in the donor portal), the system or the API. */
function actorLabel(intl: IntlShape, actorType: string) {
  switch (actorType) {
    case 'user': return intl.formatMessage({ id: 'donation.actor.user', defaultMessage: 'por un usuario' });
    case 'donor': return intl.formatMessage({ id: 'donation.actor.donor', defaultMessage: 'por el donante' });
    case 'system': return intl.formatMessage({ id: 'donation.actor.system', defaultMessage: 'automático' });
    default: return intl.formatMessage({ id: 'donation.actor.api', defaultMessage: 'por la API' });
  }
}
