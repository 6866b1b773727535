import { Badge, Group, List, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { countriesQuery } from '../accounts/api';
import { paidPlans, useChargedPrice, type Period, type Plan } from './api';

const tierBadge: Record<string, string> = { Essential: 'brand', Professional: 'grape', Partner: 'orange' };

/** One plan's card; `action` (the checkout's Choose button) goes at its foot. */
export function PlanCard({ plan, period, action }: { plan: Plan; period: Period; action?: ReactNode }) {
  const showUsd = plan.localize_price.currency !== plan.usd_price.currency;
  const price = useChargedPrice(plan) ?? plan.localize_price; // in Argentina, what the MEP rate makes of the USD price
  return (
    <Paper withBorder radius="lg" p="lg" component="article" aria-labelledby={`plan-${plan.code}`} data-testid={`plan-${plan.code}`}>
      <Stack gap="xs">
        <Badge variant="light" color={tierBadge[plan.tier_name] ?? 'gray'} w="fit-content">
          <span id={`plan-${plan.code}`}>{plan.tier_name}</span>
        </Badge>
        <Text fz={28} fw={700} lh={1.1}>
          {price.formatted}
        </Text>
        <Text size="sm" c="dimmed">
          {period === 'yearly' ? (
            <FormattedMessage id="pricing.perYear" defaultMessage="por año" />
          ) : (
            <FormattedMessage id="pricing.perMonth" defaultMessage="por mes" />
          )}
          {showUsd && (
            <>
              {' · '}
              <FormattedMessage id="pricing.usd" defaultMessage="{price} USD" values={{ price: plan.usd_price.decimal }} />
            </>
          )}
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>
            <FormattedMessage id="pricing.feature.qr" defaultMessage="Descarga de códigos QR de tus campañas" />
          </List.Item>
          <List.Item>
            <FormattedMessage id="pricing.feature.immediate" defaultMessage="Cobro inmediato de la primera donación" />
          </List.Item>
          <List.Item>
            <FormattedMessage id="pricing.feature.noCommission" defaultMessage="Sin comisión de Aporta sobre tus donaciones" />
          </List.Item>
        </List>
        {action}
      </Stack>
    </Paper>
  );
}

/** The public plan list (§2): each country's plans in its currency beside the USD list price, monthly or yearly. */
export function PricingPage({ country, period, onChange }: { country: string; period: Period; onChange: (next: { country: string; period: Period }) => void }) {
  const intl = useIntl();
  const { data: countries } = useSuspenseQuery(countriesQuery());
  const current = countries.find((c) => c.identifier === country) ?? countries[0];
  const plans = current ? paidPlans(current.plans, period) : [];
  const countryName = (code: string) => new Intl.DisplayNames([intl.locale], { type: 'region' }).of(code) ?? code;

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>
          <FormattedMessage id="pricing.title" defaultMessage="Planes" />
        </Title>
        <Text c="dimmed">
          <FormattedMessage
            id="pricing.lead"
            defaultMessage="Las organizaciones nuevas usan Essential gratis durante 90 días. Después, sin un plan, Aporta cobra una comisión del 3,5 % y no se aceptan donaciones nuevas."
          />
        </Text>
      </Stack>
      <Group gap="md" align="end" wrap="wrap">
        <Select
          label={intl.formatMessage({ id: 'pricing.country', defaultMessage: 'País' })}
          data={countries.map((c) => ({ value: c.identifier, label: countryName(c.identifier) }))}
          value={current?.identifier ?? null}
          onChange={(v) => v && onChange({ country: v, period })}
          allowDeselect={false}
          w={{ base: '100%', xs: 220 }}
        />
        <SegmentedControl
          aria-label={intl.formatMessage({ id: 'pricing.period', defaultMessage: 'Periodo de facturación' })}
          value={period}
          onChange={(v) => onChange({ country: current?.identifier ?? country, period: v === 'yearly' ? 'yearly' : 'monthly' })}
          data={[
            { value: 'monthly', label: intl.formatMessage({ id: 'pricing.monthly', defaultMessage: 'Mensual' }) },
            { value: 'yearly', label: intl.formatMessage({ id: 'pricing.yearly', defaultMessage: 'Anual' }) },
          ]}
        />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        {plans.map((p) => (
          <PlanCard key={p.code} plan={p} period={period} />
        ))}
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        <FormattedMessage
          id="pricing.original"
          defaultMessage="El plan Original no tiene costo fijo, pero no incluye la descarga de QR, el cobro inmediato ni los pagos globales."
        />
      </Text>
    </Stack>
  );
}
