import { Breadcrumbs, Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';

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

/** Where a detail page sits: a link up to its list, then the page itself (aria-current), as a breadcrumb trail. */
export function Crumbs({ up, current }: { up: ReactNode; current: ReactNode }) {
  const intl = useIntl();
  return (
    <nav aria-label={intl.formatMessage({ id: 'nav.breadcrumbs', defaultMessage: 'Ruta de navegación' })}>
      <Breadcrumbs separator="›" separatorMargin={6} styles={{ root: { flexWrap: 'wrap' } }}>
        {up}
        <Text size="sm" c="gray.7" aria-current="page" lineClamp={1} style={{ overflowWrap: 'anywhere' }}>
          {current}
        </Text>
      </Breadcrumbs>
    </nav>
  );
}
