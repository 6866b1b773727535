import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A page's h1 (level 1) or a section's h2 (level 2), with an optional dimmed lead under it. */
export function Heading({ level, id, title, lead }: { level: 1 | 2; id?: string; title: ReactNode; lead?: ReactNode }) {
  const page = level === 1;
  return (
    <div>
      <Title order={level} size={page ? 'h2' : 'h4'} id={id}>
        {title}
      </Title>
      {lead && (
        <Text c="dimmed" size={page ? undefined : 'sm'} mt={page ? 4 : undefined}>
          {lead}
        </Text>
      )}
    </div>
  );
}

/** A page's heading with an optional action at its right (a button, a filter, a link) that wraps below it on a phone. */
export function PageHeader({ title, lead, action, titleId }: { title: ReactNode; lead?: ReactNode; action?: ReactNode; titleId?: string }) {
  const heading = <Heading level={1} id={titleId} title={title} lead={lead} />;
  if (!action) return heading;
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap">
      {heading}
      {action}
    </Group>
  );
}
