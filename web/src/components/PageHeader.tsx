import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A page's h1 with an optional dimmed lead under it and an optional action at its right (a button, a
 * filter, a link) that wraps below the title on a phone.
 */
export function PageHeader({ title, lead, action, titleId }: { title: ReactNode; lead?: ReactNode; action?: ReactNode; titleId?: string }) {
  const heading = (
    <div>
      <Title order={1} size="h2" id={titleId}>
        {title}
      </Title>
      {lead && (
        <Text c="dimmed" mt={4}>
          {lead}
        </Text>
      )}
    </div>
  );
  if (!action) return heading;
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
      {heading}
      {action}
    </Group>
  );
}
