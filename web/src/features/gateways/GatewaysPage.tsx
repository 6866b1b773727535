import { Stack } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { PageHeader } from '../../components/PageHeader';
import { organizationQuery } from '../documents/api';
import { gatewaysQuery } from './api';
import { GatewaySelection } from './GatewaySelection';
import { IntegratedPayments } from './IntegratedPayments';
import { useOutcome } from './useOutcome';

/** /manage/settings/gateways: the organisation's payment gateways. */
export function GatewaysPage() {
  const { outcome, onOutcomeRead } = useOutcome();
  // The route's loader has both in the cache.
  const { data: gateways } = useSuspenseQuery(gatewaysQuery());
  const { data: org } = useSuspenseQuery(organizationQuery());
  return (
    <Stack gap="lg">
      <PageHeader
        title={<FormattedMessage id="gateways.settingsTitle" defaultMessage="Pasarelas de pago" />}
        lead={<FormattedMessage id="gateways.lead" defaultMessage="Las donaciones se cobran a través de la pasarela que conectes." />}
      />
      <GatewaySelection gateways={gateways} timezone={org.timezone} returnTo="settings" outcome={outcome} onOutcomeRead={onOutcomeRead}>
        <IntegratedPayments />
      </GatewaySelection>
    </Stack>
  );
}
