import { Anchor, Stack, Text, Title, type TitleOrder } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';

function EmptyBoxIllustration() {
  return (
    <svg width="120" height="96" viewBox="0 0 120 96" aria-hidden fill="none">
      <ellipse cx="60" cy="86" rx="44" ry="6" fill="var(--mantine-color-gray-2)" />
      <path d="M22 38 60 22l38 16v36L60 90 22 74z" fill="var(--mantine-color-brand-0)" stroke="var(--mantine-color-brand-6)" strokeWidth="2" strokeLinejoin="round" />
      <path d="M22 38l38 16 38-16M60 54v36" stroke="var(--mantine-color-brand-6)" strokeWidth="2" strokeLinejoin="round" />
      <path d="M60 22 44 12l-30 14 8 12M60 22l16-10 30 14-8 12" stroke="var(--mantine-color-brand-4)" strokeWidth="2" strokeLinejoin="round" />
    </svg>
  );
}

/** order is the title's heading level: 3 inside a page, 1 when the state is the page (the not-found page). */
export function EmptyState({
  title,
  description,
  learnMoreHref,
  order = 3,
}: {
  title: ReactNode;
  description: ReactNode;
  learnMoreHref?: string;
  order?: TitleOrder;
}) {
  return (
    <Stack align="center" gap="xs" py="xl" ta="center">
      <EmptyBoxIllustration />
      <Title order={order} size="h4">
        {title}
      </Title>
      <Text c="dimmed" size="sm" maw={420}>
        {description}
      </Text>
      {learnMoreHref && (
        <Anchor href={learnMoreHref} size="sm" fw={600}>
          <FormattedMessage id="emptyState.learnMore" defaultMessage="Más información" />
        </Anchor>
      )}
    </Stack>
  );
}
