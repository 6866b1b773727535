import { Accordion, Badge, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { GatewayIllustration } from './catalogue';

/** The green "Activa" of a connected gateway, of integrated payments once enabled, of an active processor. */
export function ActiveBadge() {
  return (
    <Badge color="green" variant="light">
      <FormattedMessage id="gateways.active" defaultMessage="Activa" />
    </Badge>
  );
}

/**
 * One block of the gateways list (a regular gateway, integrated payments): its illustration, name and badges as the
 * control; opened, its description and then the rest (children).
 */
export function GatewayItem({ id, status, name, badges, description, children }: {
  id: string; status?: string; name: ReactNode; badges: ReactNode; description: ReactNode; children: ReactNode;
}) {
  return (
    <Accordion.Item value={id} data-gateway={id} data-status={status}>
      <Accordion.Control icon={<GatewayIllustration id={id} size={44} />}>
        <Group gap="xs" wrap="wrap">
          <Text fw={700} size="lg">
            {name}
          </Text>
          {badges}
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {description}
          </Text>
          {children}
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}
