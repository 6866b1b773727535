import { Alert, Anchor, Button as MantineButton, Group, Paper, SegmentedControl, SimpleGrid, Stack, Stepper, Text } from '@mantine/core';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { GenericModal } from '../../components/GenericModal';
import { PageHeader } from '../../components/PageHeader';
import { Button } from '../../components/variants';
import { countriesQuery } from '../accounts/api';
import { organizationQuery } from '../documents/api';
import { mepQuery, paidPlans, planOf, subscribe, subscriptionPageQuery, useChargedPrice, type Period, type Plan } from './api';
import { PaymentMethodForm } from './PaymentMethodForm';
import { PlanCard } from './PricingPage';

/**
 * §9's ARS note: the plan's list price is in USD and is paid in pesos at the MEP rate, shown with the rate, its source and
 * its day. Without a rate (the provider never answered) the note still says how the price is paid.
 */
export function MepNote({ plan }: { plan: Plan }) {
  const ars = plan.localize_price.currency === 'ARS';
  const { data } = useQuery({ ...mepQuery(), enabled: ars });
  if (!ars) return null;
  const price = data?.prices[plan.code];
  return (
    <Text size="sm" c="dimmed" data-testid="mep-note">
      {data && price ? (
        <FormattedMessage id="checkout.mepNote" defaultMessage="Precio de lista: {usd} USD. En Argentina lo pagas en pesos al tipo de cambio MEP: {ars} ({rate} por dólar, {source}, {date})."
          values={{ usd: plan.usd_price.decimal, ars: price.formatted, rate: data.mep.rate.formatted, source: data.mep.source,
            date: <FormattedDate value={data.mep.as_of} timeZone="UTC" dateStyle="medium" /> }} />
      ) : (
        <FormattedMessage id="checkout.mepNoteNoRate" defaultMessage="Precio de lista: {usd} USD. En Argentina lo pagas en pesos al tipo de cambio MEP del día del cobro."
          values={{ usd: plan.usd_price.decimal }} />
      )}
    </Text>
  );
}


/**
 * §2 "Subscription": the plan list with the monthly/yearly toggle, then the payment step, then a success modal linking to
 * the subscription settings. `?plan=&period=` naming a plan opens the payment step directly.
 */
export function ChoosePage({ plan: tier, period, onChange }: { plan?: string; period: Period; onChange: (next: { plan?: string; period: Period }) => void }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const { data: org } = useSuspenseQuery(organizationQuery());
  const { data: countries } = useSuspenseQuery(countriesQuery());
  const { data: page } = useSuspenseQuery(subscriptionPageQuery());
  const [done, setDone] = useState<null | 'active' | 'pending'>(null);
  const country = countries.find((c) => c.identifier === org.country);
  const plans = country ? paidPlans(country.plans, period) : [];
  const chosen = country ? planOf(country.plans, tier, period) : undefined;
  const charged = useChargedPrice(chosen);
  const periodLabel = period === 'yearly' ? <FormattedMessage id="pricing.perYear" defaultMessage="por año" /> : <FormattedMessage id="pricing.perMonth" defaultMessage="por mes" />;

  return (
    <Stack gap="lg" maw={960}>
      <PageHeader title={<FormattedMessage id="checkout.title" defaultMessage="Elige tu plan" />}
        lead={<FormattedMessage id="checkout.lead" defaultMessage="Sin comisión de Aporta sobre tus donaciones, con QR y cobro inmediato." />} />
      <Stepper active={done ? 2 : chosen ? 1 : 0} size="sm" allowNextStepsSelect={false}>
        <Stepper.Step label={intl.formatMessage({ id: 'checkout.step.plan', defaultMessage: 'Plan' })} />
        <Stepper.Step label={intl.formatMessage({ id: 'checkout.step.payment', defaultMessage: 'Pago' })} />
        <Stepper.Step label={intl.formatMessage({ id: 'checkout.step.done', defaultMessage: 'Listo' })} />
      </Stepper>
      {page.billing && !done && (
        <Alert color="blue" variant="light" data-testid="already-subscribed">
          <FormattedMessage id="checkout.already" defaultMessage="Tu organización ya tiene una suscripción." />{' '}
          <Anchor component={Link} to="/manage/settings/subscription"><FormattedMessage id="checkout.seeSubscription" defaultMessage="Ver mi suscripción" /></Anchor>
        </Alert>
      )}
      {!chosen ? (
        <>
          <SegmentedControl w="fit-content"
            aria-label={intl.formatMessage({ id: 'pricing.period', defaultMessage: 'Periodo de facturación' })}
            value={period}
            onChange={(v) => onChange({ period: v === 'yearly' ? 'yearly' : 'monthly' })}
            data={[
              { value: 'monthly', label: intl.formatMessage({ id: 'pricing.monthly', defaultMessage: 'Mensual' }) },
              { value: 'yearly', label: intl.formatMessage({ id: 'pricing.yearly', defaultMessage: 'Anual' }) },
            ]} />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            {plans.map((p) => (
              <PlanCard key={p.code} plan={p} period={period} action={
                <Button onClick={() => onChange({ plan: p.tier_name.toLowerCase(), period })} aria-label={intl.formatMessage({ id: 'checkout.choosePlan', defaultMessage: 'Elegir {plan}' }, { plan: p.tier_name })}>
                  <FormattedMessage id="checkout.choose" defaultMessage="Elegir" />
                </Button>
              } />
            ))}
          </SimpleGrid>
        </>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Paper withBorder radius="lg" p="lg" data-testid="chosen-plan">
            <Stack gap="xs">
              <Text size="sm" c="dimmed"><FormattedMessage id="checkout.yourPlan" defaultMessage="Tu plan" /></Text>
              <Text fz={24} fw={700}>{chosen.tier_name}</Text>
              <Text>{charged?.formatted} {periodLabel}</Text>
              <MepNote plan={chosen} />
              <Anchor component="button" type="button" size="sm" w="fit-content" onClick={() => onChange({ plan: undefined, period })}>
                <FormattedMessage id="checkout.otherPlan" defaultMessage="Elegir otro plan" />
              </Anchor>
            </Stack>
          </Paper>
          <Paper withBorder radius="lg" p="lg">
            <PaymentMethodForm planCode={chosen.code} modes={country?.payment_modes ?? ['card']} tokenizer={page.tokenizer} country={org.country}
              submitLabel={<FormattedMessage id="checkout.pay" defaultMessage="Pagar {price}" values={{ price: charged?.formatted }} />}
              onAuthorized={async (type, authorization) => {
                const res = await subscribe(chosen.code, type, authorization);
                await queryClient.invalidateQueries({ queryKey: ['subscription'] });
                setDone(res.subscription?.status === 'active' ? 'active' : 'pending');
              }} />
          </Paper>
        </SimpleGrid>
      )}
      <GenericModal opened={done !== null} onClose={() => setDone(null)}
        title={done === 'active'
          ? <FormattedMessage id="checkout.success.title" defaultMessage="¡Tu plan está activo!" />
          : <FormattedMessage id="checkout.pending.title" defaultMessage="Recibimos tu suscripción" />}>
        <Stack gap="md">
          <Text>
            {done === 'active'
              ? <FormattedMessage id="checkout.success.body" defaultMessage="Ya puedes descargar QR, cobrar de inmediato y recibir donaciones sin comisión." />
              : <FormattedMessage id="checkout.pending.body" defaultMessage="El plan se activará cuando se acredite el primer pago." />}
          </Text>
          <Group justify="flex-end">
            <MantineButton component={Link} to="/manage/settings/subscription"><FormattedMessage id="checkout.seeSubscription" defaultMessage="Ver mi suscripción" /></MantineButton>
          </Group>
        </Stack>
      </GenericModal>
    </Stack>
  );
}
