import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { StepBar } from '../accounts/StepBar';
import { GuideModal } from './GuideModal';

const GATEWAYS = [
  {
    id: 'mercadopago',
    name: 'Mercado Pago',
    body: <FormattedMessage id="gateways.mercadopago.body" defaultMessage="Conecta tu cuenta de Mercado Pago y cobra donaciones únicas y mensuales con tarjeta." />,
    color: 'blue',
  },
  {
    id: 'centralpos',
    name: 'CentralPos',
    body: <FormattedMessage id="gateways.centralpos.body" defaultMessage="Usa tu código de autorización de CentralPos para cobrar con tarjetas de crédito y débito." />,
    color: 'grape',
  },
] as const;

/**
 * Gateway selection during onboarding. Connecting a gateway (OAuth for Mercado Pago, an authorization
 * code for CentralPos) is not built yet, so the cards say so plainly; "select later" goes to the panel.
 */
export function PaymentGatewaysPage() {
  return (
    <Stack gap="lg">
      <StepBar steps={{ verification: 'completed', gateway: 'active', documents: 'inactive' }} />
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div>
          <Title order={1} size="h2">
            <FormattedMessage id="gateways.title" defaultMessage="Elige tu pasarela de pago" />
          </Title>
          <Text c="dimmed" mt={4}>
            <FormattedMessage id="gateways.lead" defaultMessage="Las donaciones se cobran a través de la pasarela que conectes." />
          </Text>
        </div>
        <Anchor href="/manage/dashboard" fw={600} size="sm">
          <FormattedMessage id="gateways.later" defaultMessage="Seleccionar más tarde" />
        </Anchor>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {GATEWAYS.map((g) => (
          <Paper key={g.id} withBorder radius="lg" p="lg" component="article" aria-labelledby={`gw-${g.id}`} data-gateway={g.id}>
            <Stack gap="sm" h="100%">
              <Group justify="space-between" wrap="nowrap">
                <Group gap="sm" wrap="nowrap">
                  <ThemeIcon size={40} radius="md" color={g.color} variant="light" aria-hidden>
                    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
                      <path d="M2 7h20v12H2zM2 11h20M6 15h4" />
                    </svg>
                  </ThemeIcon>
                  <Title order={2} size="h4" id={`gw-${g.id}`}>
                    {g.name}
                  </Title>
                </Group>
                <Badge variant="light" color="gray">
                  <FormattedMessage id="gateways.soon" defaultMessage="Próximamente" />
                </Badge>
              </Group>
              <Text size="sm" c="dimmed" style={{ flex: 1 }}>
                {g.body}
              </Text>
              <Text size="xs" c="dimmed">
                <FormattedMessage id="gateways.soonBody" defaultMessage="La conexión estará disponible pronto. Mientras tanto, sube tus documentos para activar la cuenta." />
              </Text>
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
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
