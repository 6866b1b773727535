import { Alert, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState, type ReactNode } from 'react';
import { defineMessages, FormattedDate, FormattedMessage, FormattedNumber, useIntl, type IntlShape } from 'react-intl';
import { errorText } from '../../api/client';
import { actionsColumn, CellNote, DataTable } from '../../components/DataTable';
import { GenericModal } from '../../components/GenericModal';
import { ListSection } from '../../components/ListSection';
import { PageHeader } from '../../components/PageHeader';
import { Button, StatusBadge } from '../../components/variants';
import { nameOf } from '../../i18n/nameOf';
import { organizationQuery } from '../documents/api';
import { PAGE_SIZE, payoutQuery, payoutsQuery, type Payout, type PayoutItem } from './api';

/** The words for the statuses and reasons the server sends as codes (the reasons are its error codes). */
const words = defineMessages({
  waiting: { id: 'payouts.status.waiting', defaultMessage: 'En espera' },
  sending: { id: 'payouts.status.sending', defaultMessage: 'Enviando' },
  paid: { id: 'payouts.status.paid', defaultMessage: 'Pagada' },
  failed: { id: 'payouts.status.failed', defaultMessage: 'Fallida' },
  charge: { id: 'payouts.kind.charge', defaultMessage: 'Cobro' },
  reversal: { id: 'payouts.kind.reversal', defaultMessage: 'Devolución descontada' },
  'payouts.no_bank_account': { id: 'payouts.no_bank_account', defaultMessage: 'Falta una cuenta bancaria activa para recibir esta liquidación.' },
  'payouts.bank_account_currency': {
    id: 'payouts.bank_account_currency',
    defaultMessage: 'La cuenta bancaria activa está en otra moneda que esta liquidación.',
  },
  'payouts.no_tax_id': { id: 'payouts.no_tax_id', defaultMessage: 'Falta la identificación fiscal de la organización para recibir esta liquidación.' },
  'payouts.refused': { id: 'payouts.refused', defaultMessage: 'El procesador rechazó la liquidación; sus cobros pasan a la siguiente.' },
  'payouts.processor_removed': { id: 'payouts.processor_removed', defaultMessage: 'El procesador de estos cobros fue eliminado.' },
});

const word = (intl: IntlShape, code: string) => nameOf(intl, words, code);

/** Amounts stay on one line: the table scrolls sideways instead. */
const nowrap = { whiteSpace: 'nowrap' } as const;

const statusColor = { waiting: 'purple', sending: 'blue', paid: 'green', failed: 'red' } as const;

function Status({ payout }: { payout: Payout }) {
  const intl = useIntl();
  return (
    <>
      <div style={{ width: 'max-content' }}>
        <StatusBadge color={statusColor[payout.status as keyof typeof statusColor] ?? 'blue'}>{word(intl, payout.status)}</StatusBadge>
      </div>
      {payout.reason && <CellNote>{word(intl, payout.reason)}</CellNote>}
    </>
  );
}

/**
 * /manage/settings/payouts: what the organisation's integrated payments processors collected, paid out to its active
 * bank account (workflows/payouts), newest first; each payout opens with the charges it paid.
 */
export function PayoutsPage() {
  const intl = useIntl();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string>();
  const list = useQuery({ ...payoutsQuery(page), placeholderData: keepPreviousData });
  const tz = useQuery(organizationQuery()).data?.timezone;
  const columns: ColumnDef<Payout, unknown>[] = [
    {
      id: 'date',
      header: () => <FormattedMessage id="payouts.col.date" defaultMessage="Fecha" />,
      cell: ({ row: { original: p } }) => <FormattedDate value={p.paid_at ?? p.created_at} dateStyle="medium" timeZone={tz} />,
    },
    {
      id: 'amount',
      header: () => <FormattedMessage id="payouts.col.amount" defaultMessage="Monto" />,
      cell: ({ row: { original: p } }) => (
        <Text span fw={700} data-field="amount">
          {p.net.formatted} <Text span size="xs" c="dimmed">{p.net.currency}</Text>
        </Text>
      ),
    },
    {
      id: 'account',
      header: () => <FormattedMessage id="payouts.col.account" defaultMessage="Cuenta bancaria" />,
      cell: ({ row: { original: p } }) =>
        p.bank_account ? (
          <>
            {p.bank_account.account_number}
            <CellNote>{p.bank_account.bank_name}</CellNote>
          </>
        ) : (
          '—'
        ),
    },
    {
      id: 'status',
      header: () => <FormattedMessage id="payouts.col.status" defaultMessage="Estado" />,
      cell: ({ row: { original: p } }) => <Status payout={p} />,
    },
    {
      id: 'charges',
      header: () => <FormattedMessage id="payouts.col.charges" defaultMessage="Cobros" />,
      cell: ({ row: { original: p } }) => <FormattedNumber value={p.charges} />,
    },
    actionsColumn(<FormattedMessage id="payouts.col.actions" defaultMessage="Acciones" />, (p) => (
      <Button variant="outline" size="sm" onClick={() => setOpen(p.uuid)}>
        <FormattedMessage id="payouts.detail" defaultMessage="Ver cobros" />
      </Button>
    )),
  ];
  return (
    <Stack gap="lg">
      <PageHeader
        title={<FormattedMessage id="payouts.title" defaultMessage="Liquidaciones" />}
        lead={
          <FormattedMessage
            id="payouts.lead"
            defaultMessage="Lo que cobramos con tus procesadores de pagos integrados, menos la comisión de Aporta y la tarifa del procesador, se transfiere cada día a tu cuenta bancaria activa. Una devolución o un contracargo de un cobro ya liquidado se descuenta de la liquidación siguiente."
          />
        }
      />
      {list.isError && (
        <Alert color="red" role="alert">
          {errorText(list.error)}
        </Alert>
      )}
      <ListSection
        id="payouts-list"
        title={<FormattedMessage id="payouts.listTitle" defaultMessage="Liquidaciones a tu cuenta" />}
        data={list.data?.payouts ?? []}
        columns={columns}
        getRowId={(p) => p.uuid}
        rowAttributes={(p) => ({ 'data-payout': p.uuid, 'data-status': p.status })}
        labelledBy="payouts-list"
        minWidth={720}
        testId="payouts"
        busy={list.isFetching}
        pagination={list.data && list.data.total > PAGE_SIZE ? { page, perPage: PAGE_SIZE, total: list.data.total, onChange: setPage } : undefined}
        empty={
          list.data && (
            <Text size="sm" c="dimmed">
              <FormattedMessage
                id="payouts.empty"
                defaultMessage="Todavía no hay liquidaciones. La primera llega el día después de un cobro con tus procesadores de pagos integrados."
              />
            </Text>
          )
        }
      />
      <GenericModal
        opened={open !== undefined}
        onClose={() => setOpen(undefined)}
        size="xl"
        title={intl.formatMessage({ id: 'payouts.detailTitle', defaultMessage: 'Cobros de la liquidación' })}
      >
        {open && <PayoutCharges id={open} timezone={tz} />}
      </GenericModal>
    </Stack>
  );
}

/** A payout's breakdown and the charges (and deducted refunds) it paid. */
function PayoutCharges({ id, timezone }: { id: string; timezone?: string }) {
  const intl = useIntl();
  const { data, error } = useQuery(payoutQuery(id));
  if (error) {
    return (
      <Alert color="red" role="alert">
        {errorText(error)}
      </Alert>
    );
  }
  if (!data) return <Loader size="sm" aria-label={intl.formatMessage({ id: 'payouts.loading', defaultMessage: 'Cargando los cobros' })} />;
  const columns: ColumnDef<PayoutItem, unknown>[] = [
    {
      id: 'date',
      header: () => <FormattedMessage id="payouts.col.chargedAt" defaultMessage="Cobrado" />,
      cell: ({ row: { original: it } }) => <FormattedDate value={it.charged_at} dateStyle="short" timeStyle="short" timeZone={timezone} />,
    },
    {
      id: 'donor',
      header: () => <FormattedMessage id="payouts.col.donor" defaultMessage="Donante" />,
      cell: ({ row: { original: it } }) => (
        <>
          {it.donor_name}
          <CellNote>{it.campaign_title}</CellNote>
        </>
      ),
    },
    {
      id: 'kind',
      header: () => <FormattedMessage id="payouts.col.kind" defaultMessage="Concepto" />,
      cell: ({ row: { original: it } }) => word(intl, it.kind),
    },
    {
      id: 'amount',
      header: () => <FormattedMessage id="payouts.col.gross" defaultMessage="Monto" />,
      cell: ({ row: { original: it } }) => <Text span style={nowrap}>{it.amount.formatted}</Text>,
    },
    {
      id: 'deductions',
      header: () => <FormattedMessage id="payouts.col.deductions" defaultMessage="Comisión y tarifa" />,
      cell: ({ row: { original: it } }) => (
        <>
          <Text span style={nowrap}>{it.commission.formatted}</Text>
          <CellNote>{it.fee.formatted}</CellNote>
        </>
      ),
    },
    {
      id: 'net',
      header: () => <FormattedMessage id="payouts.col.net" defaultMessage="Neto" />,
      cell: ({ row: { original: it } }) => <Text span fw={600} style={nowrap}>{it.net.formatted}</Text>,
    },
  ];
  const line = (label: ReactNode, value: string, strong = false) => (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={strong ? 700 : 500}>{value}</Text>
    </div>
  );
  return (
    <Stack gap="md">
      <Group gap="sm" wrap="wrap">
        <Status payout={data} />
        {data.bank_account && (
          <Text size="sm">
            {data.bank_account.bank_name} {data.bank_account.account_number}
          </Text>
        )}
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm">
        {line(<FormattedMessage id="payouts.sum.gross" defaultMessage="Cobros" />, data.gross.formatted)}
        {line(<FormattedMessage id="payouts.sum.commission" defaultMessage="Comisión de Aporta" />, data.commission.formatted)}
        {line(<FormattedMessage id="payouts.sum.fee" defaultMessage="Tarifa del procesador" />, data.fee.formatted)}
        {line(<FormattedMessage id="payouts.sum.deducted" defaultMessage="Devoluciones descontadas" />, data.deducted.formatted)}
        {line(<FormattedMessage id="payouts.sum.net" defaultMessage="Neto transferido" />, data.net.formatted, true)}
      </SimpleGrid>
      <Text fw={600} id="payout-charges">
        <FormattedMessage id="payouts.charges" defaultMessage="Cobros incluidos" />
      </Text>
      <DataTable
        data={data.items}
        columns={columns}
        getRowId={(it) => `${it.transaction_uuid}/${it.kind}`}
        rowAttributes={(it) => ({ 'data-kind': it.kind })}
        labelledBy="payout-charges"
        minWidth={720}
        testId="payout-charges"
        empty={
          <Text size="sm" c="dimmed">
            <FormattedMessage id="payouts.chargesEmpty" defaultMessage="El procesador rechazó esta liquidación: sus cobros pasaron a la siguiente." />
          </Text>
        }
      />
    </Stack>
  );
}
