import { AppShell, Container, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Locale } from '../../i18n/locale';
import { Brand, LanguageSwitch, ShellMain } from './AppHeader';

/** The frame of the public pages (landing, signup, sign-in, onboarding): the brand and the language switch. */
export function PublicShell({ locale, children }: { locale: Locale; children: ReactNode }) {
  return (
    <AppShell header={{ height: 64 }} padding={0}>
      <AppShell.Header>
        <Container size="lg" h="100%" px={{ base: 'md', sm: 'lg' }}>
          <Group h="100%" justify="space-between" wrap="nowrap" gap="sm">
            <Brand />
            <LanguageSwitch locale={locale} />
          </Group>
        </Container>
      </AppShell.Header>
      <ShellMain>{children}</ShellMain>
    </AppShell>
  );
}
