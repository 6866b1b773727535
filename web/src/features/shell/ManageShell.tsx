import { AppShell, Badge, Burger, Group, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect, useId } from 'react';
import { defineMessages, useIntl, type MessageDescriptor } from 'react-intl';
import { Icon } from '../../components/Icon';
import { currentUserQuery } from '../accounts/api';
import { organizationQuery, type AccountState } from '../documents/api';
import { Brand, ShellMain } from './AppHeader';
import { allowedEntries, groupLabels, type NavEntry } from './navigation';
import classes from './ManageShell.module.css';
import { UserMenu } from './UserMenu';

const stateLabel: Record<AccountState, MessageDescriptor> = defineMessages({
  enabled: { id: 'account.state.enabled', defaultMessage: 'Cuenta habilitada' },
  verifying: { id: 'account.state.verifying', defaultMessage: 'Cuenta en verificación' },
  documents_with_errors: { id: 'account.state.errors', defaultMessage: 'Documentos con observaciones' },
  no_documents: { id: 'account.state.noDocuments', defaultMessage: 'Faltan documentos' },
});
const stateColor: Record<AccountState, string> = { enabled: 'green', verifying: 'yellow', documents_with_errors: 'red', no_documents: 'blue' };

/** The organisation this session works on, and its account state (spec §4). */
function OrganizationCard() {
  const intl = useIntl();
  const { data: org } = useSuspenseQuery(organizationQuery()); // the manage route's loader has it
  const state = org.account?.state ?? 'no_documents';
  return (
    <Stack gap={6} px="xs" pb="sm" data-testid="organization-card">
      <Text fw={700} size="sm" lineClamp={2} title={org.name}>
        {org.name}
      </Text>
      <Badge variant="light" color={stateColor[state]} size="sm" radius="sm" w="fit-content">
        {intl.formatMessage(stateLabel[state])}
      </Badge>
    </Stack>
  );
}

function Entry({ entry, pathname, onClick }: { entry: NavEntry; pathname: string; onClick: () => void }) {
  const intl = useIntl();
  const active = pathname === entry.to || pathname.startsWith(`${entry.to}/`);
  return (
    <NavLink
      component={Link}
      to={entry.to}
      active={active}
      label={intl.formatMessage(entry.label)}
      leftSection={<Icon d={entry.icon} size={18} />}
      variant="light"
      fw={600}
      onClick={onClick}
    />
  );
}

/** The side bar: every section the user's abilities allow, settings under their own heading. */
function Navigation({ abilities, onChoose }: { abilities: string[]; onChoose: () => void }) {
  const intl = useIntl();
  const settingsId = useId();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const entries = allowedEntries(abilities);
  const main = entries.filter((e) => !e.group);
  const settings = entries.filter((e) => e.group === 'settings');
  return (
    <Stack gap={2}>
      {main.map((e) => (
        <Entry key={e.to} entry={e} pathname={pathname} onClick={onChoose} />
      ))}
      {settings.length > 0 && (
        <div role="group" aria-labelledby={settingsId}>
          <Text id={settingsId} size="xs" fw={700} c="gray.7" tt="uppercase" px="sm" pt="md" pb={4} style={{ letterSpacing: 0.4 }}>
            {intl.formatMessage(groupLabels.settings)}
          </Text>
          {settings.map((e) => (
            <Entry key={e.to} entry={e} pathname={pathname} onClick={onChoose} />
          ))}
        </div>
      )}
    </Stack>
  );
}

/** The frame of the manage area: header with the user menu, the side bar (a drawer behind the burger on phones), the page. */
export function ManageShell() {
  const intl = useIntl();
  const { data: me } = useSuspenseQuery(currentUserQuery()); // ensureSignedIn put it in the cache
  const [opened, { toggle, close }] = useDisclosure(false);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  useEffect(close, [pathname, close]); // leaving the page closes the drawer (a chosen entry closes it even when it is this page)

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding={0}>
      <AppShell.Header>
        <Group h="100%" px={{ base: 'sm', sm: 'md' }} justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-expanded={opened}
              aria-controls="manage-navigation"
              aria-label={intl.formatMessage({ id: 'nav.toggle', defaultMessage: 'Abrir o cerrar la navegación' })}
            />
            <Brand to="/manage/dashboard" />
          </Group>
          <UserMenu me={me} />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar id="manage-navigation" p="sm" className={classes.navbar} data-closed={!opened || undefined} aria-label={intl.formatMessage({ id: 'nav.label', defaultMessage: 'Principal' })}>
        <OrganizationCard />
        <AppShell.Section grow component={ScrollArea}>
          <Navigation abilities={me.abilities} onChoose={close} />
        </AppShell.Section>
      </AppShell.Navbar>
      <ShellMain><Outlet /></ShellMain>
    </AppShell>
  );
}
