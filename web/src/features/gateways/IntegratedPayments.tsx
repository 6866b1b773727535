import { Accordion, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { bankParamsQuery } from './bank/api';
import { BankAccountCard } from './bank/BankAccountCard';
import { GatewayIllustration } from './catalogue';

export const INTEGRATED = 'integrated_payments';

/**
 * The integrated payments block of the gateways list (spec §2 "Gateways page"): Aporta charges through its own
 * processors on the organisation's behalf and pays out to the organisation's bank account. Shown where the country
 * has integrated payments (a bank list to pay out to).
 */
export function IntegratedPayments() {
  const params = useQuery(bankParamsQuery());
  if (!params.data?.banks.length) return null;
  return (
    <Accordion.Item value={INTEGRATED} data-gateway={INTEGRATED}>
      <Accordion.Control icon={<GatewayIllustration id={INTEGRATED} size={44} />}>
        <Text fw={700} size="lg">
          <FormattedMessage id="integrated.title" defaultMessage="Pagos integrados" />
        </Text>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            <FormattedMessage
              id="integrated.lead"
              defaultMessage="Cobramos por ti con procesadores locales y globales, y transferimos lo recaudado a tu cuenta bancaria."
            />
          </Text>
          <BankAccountCard />
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}
