import { Anchor, Box, Container, Group, SegmentedControl, Text, VisuallyHidden } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
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

export function AppHeader({ locale }: { locale: Locale }) {
  const intl = useIntl();
  const navigate = useNavigate();
  return (
    <Container size="lg" h="100%" px={{ base: 'md', sm: 'lg' }}>
      <Group h="100%" justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="lg" wrap="nowrap">
          <Anchor component={Link} to="/" underline="never" c="inherit" className={classes.brand}>
            <Group gap={8} wrap="nowrap">
              <Logo />
              <Text fw={800} size="lg" lh={1}>
                Aporta
              </Text>
            </Group>
          </Anchor>
          <Box component="nav" aria-label={intl.formatMessage({ id: 'nav.label', defaultMessage: 'Principal' })} visibleFrom="xs">
            <Group gap="md">
              <Anchor component={Link} to="/" size="sm" c="gray.7" className={classes.navLink} activeOptions={{ exact: true }}>
                <FormattedMessage id="nav.home" defaultMessage="Inicio" />
              </Anchor>
            </Group>
          </Box>
        </Group>
        <div>
          <VisuallyHidden id="language-label">
            <FormattedMessage id="nav.language" defaultMessage="Idioma" />
          </VisuallyHidden>
          <SegmentedControl
            size="xs"
            aria-labelledby="language-label"
            value={locale}
            onChange={(next) => {
              rememberLocale(next as Locale);
              navigate({ to: '.', search: (prev) => ({ ...prev, locale: next }) });
            }}
            data={LOCALES.map((value) => ({ value, label: value.toUpperCase() }))}
          />
        </div>
      </Group>
    </Container>
  );
}
