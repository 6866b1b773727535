import { Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { PageHeader } from '../../components/PageHeader';
import { StepBar } from '../accounts/StepBar';
import { onboardingSteps } from '../accounts/steps';
import { organizationQuery } from '../documents/api';
import { gatewaysQuery } from '../gateways/api';
import { GatewaySelection } from '../gateways/GatewaySelection';
import { GuideModal } from './GuideModal';
import { useOutcome } from '../gateways/useOutcome';

/**
 * The onboarding's gateway step: the same selection as the settings page, coming back here from the gateway.
 * The step bar marks the gateway step completed (and documents next) once any gateway is connected.
 */
export function PaymentGatewaysPage() {
  const { outcome, onOutcomeRead } = useOutcome();
  // The route's loader has both in the cache.
  const { data: gateways } = useSuspenseQuery(gatewaysQuery());
  const { data: org } = useSuspenseQuery(organizationQuery());
  const hasGateway = gateways.some((g) => g.enabled);
  return (
    <Stack gap="lg">
      <StepBar steps={onboardingSteps({ verified: true, hasGateway })} />
      <PageHeader
        title={<FormattedMessage id="gateways.title" defaultMessage="Elige tu pasarela de pago" />}
        lead={<FormattedMessage id="gateways.lead" defaultMessage="Las donaciones se cobran a través de la pasarela que conectes." />}
        action={
          <Anchor href="/manage/dashboard" fw={600} size="sm">
            <FormattedMessage id="gateways.later" defaultMessage="Seleccionar más tarde" />
          </Anchor>
        }
      />
      <GatewaySelection gateways={gateways} timezone={org.timezone} returnTo="onboarding" outcome={outcome} onOutcomeRead={onOutcomeRead} />
      <Paper withBorder radius="lg" p="lg" bg="brand.0">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <div>
            <Text fw={700}>
              <FormattedMessage id="gateways.documentsTitle" defaultMessage="Siguiente paso: tus documentos" />
            </Text>
            <Text size="sm" c="dimmed">
              <FormattedMessage id="gateways.documentsBody" defaultMessage="Verificamos tu organización para habilitar la cuenta." />
            </Text>
          </div>
          <Anchor href="/account/onboarding/documents" fw={700}>
            <FormattedMessage id="gateways.toDocuments" defaultMessage="Subir documentos" />
          </Anchor>
        </Group>
      </Paper>
      <GuideModal name="payment_gateways_config" />
    </Stack>
  );
}
