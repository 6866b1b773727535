import { Anchor, Button as MantineButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useState, type ReactNode } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { DataTable } from '../../components/DataTable';
import { nameOf } from '../../i18n/nameOf';
import { EmptyState } from '../../components/EmptyState';
import { GenericModal } from '../../components/GenericModal';
import { PageHeader } from '../../components/PageHeader';
import { SectionCard } from '../../components/SectionCard';
import { Button, StatusBadge, type BadgeColor } from '../../components/variants';
import { countriesQuery } from '../accounts/api';
import { organizationQuery } from '../documents/api';
import { ConfirmDialog } from '../donations/dialogs';
import { cancelSubscription, changePaymentMode, invoicePdfUrl, subscriptionPageQuery, type Billing, type Invoice } from './api';
import { MepNote } from './ChoosePage';
import { ChangePlanDialog } from './ChangePlanDialog';
import { ModeLabel, PaymentMethodForm } from './PaymentMethodForm';

const statusColor: Record<string, BadgeColor> = { active: 'green', pending: 'blue', past_due: 'red', cancelled: 'purple', paid: 'green', failed: 'red' };

const statusNames = defineMessages({
  active: { id: 'billing.status.active', defaultMessage: 'Activa' },
  pending: { id: 'billing.status.pending', defaultMessage: 'Pendiente de pago' },
  past_due: { id: 'billing.status.pastDue', defaultMessage: 'Pago rechazado' },
  cancelled: { id: 'billing.status.cancelled', defaultMessage: 'Cancelada' },
  paid: { id: 'billing.status.paid', defaultMessage: 'Pagada' },
  failed: { id: 'billing.status.failed', defaultMessage: 'Rechazada' },
});

/** A subscription's or an invoice's status as a badge; a status the table does not know as it comes, in blue. */
function BillingStatus({ status }: { status: string }) {
  const intl = useIntl();
  return <StatusBadge color={statusColor[status] ?? 'blue'}>{nameOf(intl, statusNames, status)}</StatusBadge>;
}

const Row = ({ label, children }: { label: ReactNode; children: ReactNode }) => (
  <div>
    <Text size="xs" c="dimmed" tt="uppercase" fw={600}>{label}</Text>
    <Text fw={500}>{children}</Text>
  </div>
);

function MethodText({ b }: { b: Billing }) {
  if (b.payment_mode === 'card') return <>{`${(b.brand ?? '').toUpperCase()} ···· ${b.last_four ?? ''}`}</>;
  if (b.payment_mode === 'cbu') return <><FormattedMessage id="checkout.mode.cbu" defaultMessage="Débito directo (CBU)" /> {b.cbu}</>;
  return <ModeLabel mode={b.payment_mode} />;
}

/** §7 "Subscription" in the settings: the current plan, its next charge and payment method (change it), cancel, and the invoices. */
export function SubscriptionSettingsPage() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const { data: page } = useSuspenseQuery(subscriptionPageQuery());
  const { data: org } = useSuspenseQuery(organizationQuery());
  const { data: countries } = useSuspenseQuery(countriesQuery());
  const [dialog, setDialog] = useState<null | 'method' | 'cancel' | 'plan'>(null);
  const country = countries.find((c) => c.identifier === org.country);
  const b = page.billing;
  const plan = country?.plans.find((p) => p.code === (b?.plan_code ?? page.subscription.plan_code));
  const date = (iso: string | null) => (iso ? intl.formatDate(iso, { dateStyle: 'long' }) : '—');
  const refresh = (next?: typeof page) => {
    if (next) queryClient.setQueryData(subscriptionPageQuery().queryKey, next);
    return queryClient.invalidateQueries({ queryKey: ['subscription'] });
  };

  const columns: ColumnDef<Invoice, unknown>[] = [
    { id: 'period', header: intl.formatMessage({ id: 'billing.col.period', defaultMessage: 'Período' }), cell: ({ row }) => `${date(row.original.period_start)} – ${date(row.original.period_end)}` },
    { id: 'plan', header: intl.formatMessage({ id: 'billing.col.plan', defaultMessage: 'Plan' }), cell: ({ row }) => {
      const name = country?.plans.find((p) => p.code === row.original.plan_code)?.tier_name ?? row.original.plan_code;
      return row.original.kind === 'prorata' ? intl.formatMessage({ id: 'billing.kind.prorata', defaultMessage: '{plan} (diferencia prorrateada)' }, { plan: name }) : name;
    } },
    { id: 'amount', header: intl.formatMessage({ id: 'billing.col.amount', defaultMessage: 'Monto' }), cell: ({ row: { original: inv } }) => (
      <>
        {inv.amount.formatted}
        {inv.mep && (
          <Text size="xs" c="dimmed" data-testid="invoice-mep">
            <FormattedMessage id="billing.mepRate" defaultMessage="{usd} USD a {rate} por dólar" values={{ usd: inv.mep.usd_price.decimal, rate: inv.mep.rate.formatted }} />
          </Text>
        )}
      </>
    ) },
    { id: 'method', header: intl.formatMessage({ id: 'billing.col.method', defaultMessage: 'Medio de pago' }), cell: ({ row }) => <ModeLabel mode={row.original.payment_mode} /> },
    { id: 'status', header: intl.formatMessage({ id: 'billing.col.status', defaultMessage: 'Estado' }), cell: ({ row }) => <BillingStatus status={row.original.status} /> },
    {
      id: 'pdf', header: intl.formatMessage({ id: 'billing.col.pdf', defaultMessage: 'Factura' }),
      cell: ({ row }) => row.original.status === 'paid' && (
        <Anchor href={invoicePdfUrl(row.original.id)} download data-testid="invoice-pdf"
          aria-label={intl.formatMessage({ id: 'billing.download.label', defaultMessage: 'Descargar PDF de la factura del {period}' }, { period: date(row.original.period_start) })}>
          <FormattedMessage id="billing.download" defaultMessage="Descargar PDF" />
        </Anchor>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <PageHeader title={<FormattedMessage id="billing.title" defaultMessage="Suscripción" />}
        lead={<FormattedMessage id="billing.lead" defaultMessage="Tu plan de Aporta, su próximo cobro y tus facturas." />} />
      <SectionCard id="billing-plan" title={<FormattedMessage id="billing.current" defaultMessage="Plan actual" />}
        aside={b && <BillingStatus status={b.status} />}>
        {b ? (
          <Stack gap="md" data-testid="billing-current">
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
              <Row label={<FormattedMessage id="billing.plan" defaultMessage="Plan" />}>{plan?.tier_name ?? b.plan_code}</Row>
              <Row label={<FormattedMessage id="billing.period" defaultMessage="Período" />}>
                {plan?.period === 'yearly' ? <FormattedMessage id="pricing.yearly" defaultMessage="Anual" /> : <FormattedMessage id="pricing.monthly" defaultMessage="Mensual" />}
              </Row>
              <Row label={<FormattedMessage id="billing.price" defaultMessage="Precio" />}>{b.price.formatted}</Row>
              <Row label={b.status === 'cancelled'
                ? <FormattedMessage id="billing.endsOn" defaultMessage="Termina el" />
                : <FormattedMessage id="billing.nextCharge" defaultMessage="Próximo cobro" />}>
                {b.status === 'cancelled' ? date(b.paid_until) : b.next_charge ? date(b.next_charge) : <FormattedMessage id="billing.awaitingPayment" defaultMessage="Esperando el primer pago" />}
              </Row>
              <Row label={<FormattedMessage id="billing.method" defaultMessage="Medio de pago" />}><MethodText b={b} /></Row>
              {b.next_plan_code && (
                <Row label={<FormattedMessage id="billing.nextPlan" defaultMessage="Desde el {date}" values={{ date: date(b.paid_until) }} />}>
                  <span data-testid="billing-next-plan">{country?.plans.find((p) => p.code === b.next_plan_code)?.tier_name ?? b.next_plan_code}</span>
                </Row>
              )}
            </SimpleGrid>
            {plan && <MepNote plan={plan} />}
            {b.status !== 'cancelled' && (
              <Group gap="sm" wrap="wrap">
                {b.status === 'active' && plan && (
                  <Button variant="primary" onClick={() => setDialog('plan')}><FormattedMessage id="billing.changePlan" defaultMessage="Cambiar plan" /></Button>
                )}
                <Button variant="secondary" onClick={() => setDialog('method')}><FormattedMessage id="billing.changeMethod" defaultMessage="Cambiar medio de pago" /></Button>
                <Button variant="ghost" onClick={() => setDialog('cancel')}><FormattedMessage id="billing.cancel" defaultMessage="Cancelar suscripción" /></Button>
              </Group>
            )}
          </Stack>
        ) : (
          <Stack gap="sm" data-testid="billing-none">
            <Text>
              {page.subscription.status === 'trial'
                ? <FormattedMessage id="billing.trial" defaultMessage="Estás en la prueba gratuita de Essential hasta el {date}." values={{ date: date(page.subscription.trial_ends_at) }} />
                : page.subscription.status === 'restricted'
                  ? <FormattedMessage id="billing.restricted" defaultMessage="Tu prueba terminó: se aplica una comisión del 3,5 % y no recibes donaciones nuevas hasta que elijas un plan." />
                  : <FormattedMessage id="billing.nonePlan" defaultMessage="Tu plan actual: {plan}." values={{ plan: plan?.tier_name ?? page.subscription.plan_code }} />}
            </Text>
            <MantineButton component={Link} to="/account/subscriptions/choose" w="fit-content"><FormattedMessage id="billing.seePlans" defaultMessage="Ver planes" /></MantineButton>
          </Stack>
        )}
      </SectionCard>
      <SectionCard id="billing-invoices" title={<FormattedMessage id="billing.invoices" defaultMessage="Facturas" />}>
        <DataTable data={page.invoices} columns={columns} getRowId={(i) => i.id} minWidth={640} testId="invoices"
          empty={<EmptyState title={<FormattedMessage id="billing.invoices.empty" defaultMessage="Sin facturas" />}
            description={<FormattedMessage id="billing.invoices.emptyBody" defaultMessage="Cada período cobrado de tu plan aparecerá aquí." />} />} />
      </SectionCard>
      {b && (
        <GenericModal opened={dialog === 'method'} onClose={() => setDialog(null)} title={<FormattedMessage id="billing.changeMethod" defaultMessage="Cambiar medio de pago" />}>
          <PaymentMethodForm planCode={b.plan_code} modes={country?.payment_modes ?? ['card']} tokenizer={page.tokenizer} country={org.country}
            submitLabel={<FormattedMessage id="billing.saveMethod" defaultMessage="Guardar medio de pago" />}
            onAuthorized={async (type, authorization) => { await refresh(await changePaymentMode(type, authorization)); setDialog(null); }} />
        </GenericModal>
      )}
      {b && plan && country && (
        <ChangePlanDialog opened={dialog === 'plan'} onClose={() => setDialog(null)} plans={country.plans} current={plan}
          nextChargeOn={date(b.paid_until)} onChanged={(next) => refresh(next)} />
      )}
      <ConfirmDialog opened={dialog === 'cancel'} onClose={() => setDialog(null)} destructive
        title={<FormattedMessage id="billing.cancel" defaultMessage="Cancelar suscripción" />}
        body={<FormattedMessage id="billing.cancel.body" defaultMessage="Conservas tu plan hasta el {date}. Después se aplica la comisión del 3,5 % y no recibes donaciones nuevas." values={{ date: date(b?.paid_until ?? null) }} />}
        confirm={<FormattedMessage id="billing.cancel.confirm" defaultMessage="Cancelar suscripción" />}
        onConfirm={async () => { await refresh(await cancelSubscription()); }} />
    </Stack>
  );
}
