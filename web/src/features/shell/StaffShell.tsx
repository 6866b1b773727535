import { Anchor, AppShell, Badge, Box, Container, Group } from '@mantine/core';
import { Link, Outlet } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Locale } from '../../i18n/locale';
import { Brand, LanguageSwitch, ShellMain } from './AppHeader';

/** The staff console's frame: staff verify organisations, so it has its own header and none of an organisation's sections. */
export function StaffShell() {
  const intl = useIntl();
  return (
    <AppShell header={{ height: 60 }} padding={0}>
      <AppShell.Header>
        <Container size="lg" h="100%" px={{ base: 'sm', sm: 'lg' }}>
          <Group h="100%" justify="space-between" wrap="nowrap" gap="sm">
            <Group gap="md" wrap="nowrap">
              <Brand to="/staff">
                <Badge variant="light" color="grape" size="sm" visibleFrom="xs">
                  <FormattedMessage id="staff.console" defaultMessage="Consola" />
                </Badge>
              </Brand>
              <Box component="nav" visibleFrom="xs" aria-label={intl.formatMessage({ id: 'nav.label', defaultMessage: 'Principal' })}>
                <Anchor component={Link} to="/staff" size="sm" fw={600} c="gray.8">
                  <FormattedMessage id="staff.nav.organizations" defaultMessage="Organizaciones" />
                </Anchor>
              </Box>
            </Group>
            <Group gap="sm" wrap="nowrap">
              <LanguageSwitch locale={intl.locale as Locale} />
              <Anchor href="/account/logout" size="sm" fw={600} c="gray.8">
                <FormattedMessage id="dashboard.logout" defaultMessage="Cerrar sesión" />
              </Anchor>
            </Group>
          </Group>
        </Container>
      </AppShell.Header>
      <ShellMain><Outlet /></ShellMain>
    </AppShell>
  );
}
