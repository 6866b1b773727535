import { Alert, Anchor, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { organizationQuery } from '../documents/api';
import { bankAccountsQuery, bankParamsQuery } from './bank/api';
import { BankAccountCard } from './bank/BankAccountCard';
import { ActiveBadge, GatewayItem } from './GatewayItem';
import { processorsQuery, type GatewayOption, type PaymentProcessor } from './processors/api';
import { ProcessorItem } from './processors/ProcessorItem';
import { SetupModal } from './processors/SetupModal';

export const INTEGRATED = 'integrated_payments';

/**
 * The integrated payments block of the gateways list (spec §2 "Gateways page"): Aporta charges through its own
 * processors on the organisation's behalf and pays out to the organisation's bank account. Shown where the country
 * has integrated payments (a bank list to pay out to).
 */
export function IntegratedPayments() {
  const params = useQuery(bankParamsQuery());
  const processors = useQuery(processorsQuery());
  const org = useQuery(organizationQuery());
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<{ option: GatewayOption; processor?: PaymentProcessor }>();
  const enabled = (processors.data?.payment_processors.length ?? 0) > 0;
  // Shown where the country has integrated payments, or where one is enabled (spec §2).
  if (!params.data?.banks.length && !enabled) return null;
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: processorsQuery().queryKey });
    void queryClient.invalidateQueries({ queryKey: bankAccountsQuery().queryKey });
  };
  return (
    <GatewayItem
      id={INTEGRATED}
      name={<FormattedMessage id="integrated.title" defaultMessage="Pagos integrados" />}
      badges={enabled && <ActiveBadge />}
      description={
        <FormattedMessage
          id="integrated.lead"
          defaultMessage="Cobramos por ti con procesadores locales y globales, y transferimos lo recaudado a tu cuenta bancaria."
        />
      }
    >
      <BankAccountCard />
      {enabled && (
        <Anchor component={Link} to="/manage/settings/payouts" size="sm" fw={600}>
          <FormattedMessage id="integrated.payouts" defaultMessage="Ver las liquidaciones a tu cuenta" />
        </Anchor>
      )}
      {processors.isError && (
        <Alert color="red" variant="light" role="alert">
          {processors.error.message}
        </Alert>
      )}
      {processors.data?.gateway_options.map((option) => {
        // Several local processors where the flag allows them: each is listed, the option stays choosable.
        const mine = processors.data.payment_processors.filter((p) => p.family === option.id);
        return (
          <Stack gap="sm" key={option.id}>
            {mine.map((p) => (
              <ProcessorItem key={p.uuid} option={option} processor={p} timezone={org.data?.timezone}
                onChoose={() => undefined} onEdit={() => setSetup({ option, processor: p })} onDiscarded={refresh} />
            ))}
            {(mine.length === 0 || option.available) && (
              <ProcessorItem option={option} timezone={org.data?.timezone} onChoose={() => setSetup({ option })} onEdit={() => undefined} onDiscarded={refresh} />
            )}
          </Stack>
        );
      })}
    {setup && (
      <SetupModal option={setup.option} processor={setup.processor} opened onClose={() => setSetup(undefined)} onSaved={refresh} />
    )}
    </GatewayItem>
  );
}
