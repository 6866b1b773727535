import { Anchor, AppShell, Container, Group, SegmentedControl, Text, VisuallyHidden } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { useId, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { LOCALES, rememberLocale, type Locale } from '../../i18n/locale';
import classes from './AppHeader.module.css';

function Logo() {
  return (
    <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden>
      <rect width="32" height="32" rx="8" fill="var(--mantine-color-brand-7)" />
      <path d="M16 25s-8-4.8-8-10.4A4.6 4.6 0 0 1 16 12a4.6 4.6 0 0 1 8 2.6C24 20.2 16 25 16 25z" fill="#fff" />
    </svg>
  );
}

/** The product's name and logo, a link to `to` (the landing page, or an area's start page). */
export function Brand({ to = '/', children }: { to?: '/' | '/manage/dashboard' | '/staff'; children?: ReactNode }) {
  return (
    <Anchor component={Link} to={to} underline="never" c="inherit" className={classes.brand}>
      <Group gap={8} wrap="nowrap">
        <Logo />
        <Text fw={800} size="lg" lh={1}>
          Aporta
        </Text>
        {children}
      </Group>
    </Anchor>
  );
}

/** The page under an area's header: every shell's content column. */
export function ShellMain({ children }: { children: ReactNode }) {
  return (
    <AppShell.Main bg="gray.0">
      <Container size="lg" py={{ base: 'lg', sm: 'xl' }} px={{ base: 'md', sm: 'lg' }}>
        {children}
      </Container>
    </AppShell.Main>
  );
}

/** Switches the page's language: the choice goes in the address (links carry it) and in a cookie for later visits. */
export function useSwitchLocale() {
  const navigate = useNavigate();
  return (next: Locale) => {
    rememberLocale(next);
    void navigate({ to: '.', search: (prev) => ({ ...prev, locale: next }) });
  };
}

export function LanguageSwitch({ locale }: { locale: Locale }) {
  const labelId = useId();
  const switchLocale = useSwitchLocale();
  return (
    <div>
      <VisuallyHidden id={labelId}>
        <FormattedMessage id="nav.language" defaultMessage="Idioma" />
      </VisuallyHidden>
      <SegmentedControl
        size="xs"
        aria-labelledby={labelId}
        value={locale}
        onChange={(next) => switchLocale(next as Locale)}
        data={LOCALES.map((value) => ({ value, label: value.toUpperCase() }))}
      />
    </div>
  );
}
