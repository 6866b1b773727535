import { Group, Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One staff action on an organisation: its name and a hint at the left, its button at the right, anything else (an error) below. */
export function ActionPanel({ titleId, title, hint, action, children }: { titleId: string; title: ReactNode; hint: ReactNode; action: ReactNode; children?: ReactNode }) {
  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <div>
          <Text fw={700} id={titleId}>
            {title}
          </Text>
          <Text size="sm" c="dimmed">
            {hint}
          </Text>
        </div>
        {action}
      </Group>
      {children}
    </Paper>
  );
}
