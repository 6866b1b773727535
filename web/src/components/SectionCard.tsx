import { Group, Paper, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Heading } from './PageHeader';
import { Button } from './variants';

/**
 * A bordered section of a page, named by its h2 (`id` ties the two for screen readers), with an optional
 * dimmed lead under the title and an optional `aside` (a badge, a button) at the title's right.
 */
export function SectionCard({ id, title, lead, aside, children }: { id: string; title: ReactNode; lead?: ReactNode; aside?: ReactNode; children: ReactNode }) {
  const heading = <Heading level={2} id={id} title={title} lead={lead} />;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={id}>
      <Stack gap="md">
        {aside ? (
          <Group justify="space-between" wrap="nowrap">
            {heading}
            {aside}
          </Group>
        ) : (
          heading
        )}
        {children}
      </Stack>
    </Paper>
  );
}

/** A SectionCard that is one form, sent by the button at its foot ("Guardar" unless `submitLabel` says otherwise). */
export function FormSection({
  id,
  title,
  onSubmit,
  saving,
  submitLabel,
  children,
}: {
  id: string;
  title: ReactNode;
  onSubmit: (event: FormEvent) => unknown;
  saving?: boolean;
  submitLabel?: ReactNode;
  children: ReactNode;
}) {
  return (
    <SectionCard id={id} title={title}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {children}
          <Group justify="flex-end">
            <Button type="submit" loading={saving}>
              {submitLabel ?? <FormattedMessage id="common.save" defaultMessage="Guardar" />}
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}
