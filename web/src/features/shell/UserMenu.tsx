import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorText } from '../../api/client';
import { Icon } from '../../components/Icon';
import { showToast } from '../../components/Toasts';
import { LOCALES, type Locale } from '../../i18n/locale';
import { updateMyData, type CurrentUser } from '../accounts/api';
import { useSwitchLocale } from './AppHeader';
import classes from './UserMenu.module.css';

/** Each language in its own name, as a person looking for theirs reads it. */
const LANGUAGE_NAMES: Record<Locale, string> = { es: 'Español', en: 'English', pt: 'Português' };

const CHECK = 'M20 6 9 17l-5-5';

function initials(me: CurrentUser) {
  const name = me.full_name.trim() || me.email;
  return name
    .split(/\s+/)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('');
}

/** The signed-in person's menu: their data, password, language (kept in their profile too) and sign out. */
export function UserMenu({ me }: { me: CurrentUser }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const switchLocale = useSwitchLocale();
  const current = intl.locale as Locale;

  const chooseLanguage = async (locale: Locale) => {
    switchLocale(locale);
    try {
      queryClient.setQueryData(['user'], await updateMyData({ locale }));
    } catch (e) {
      showToast({ type: 'fail', message: errorText(e) });
    }
  };

  return (
    <Menu position="bottom-end" width={240} withinPortal shadow="md">
      <Menu.Target>
        <UnstyledButton data-testid="user-menu">
          <Group gap="xs" wrap="nowrap">
            <Avatar color="brand" radius="xl" size={34} aria-hidden>
              {initials(me)}
            </Avatar>
            <Text size="sm" fw={600} maw={180} truncate className={classes.name}>
              {me.full_name || me.email}
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{me.email}</Menu.Label>
        <Menu.Item component={Link} to="/manage/settings/users" hash="my-data">
          <FormattedMessage id="users.myData" defaultMessage="Mis datos" />
        </Menu.Item>
        <Menu.Item component={Link} to="/manage/settings/users" hash="change-pw">
          <FormattedMessage id="userMenu.password" defaultMessage="Contraseña" />
        </Menu.Item>
        <Menu.Divider />
        <Menu.Label>
          <FormattedMessage id="nav.language" defaultMessage="Idioma" />
        </Menu.Label>
        {LOCALES.map((locale) => (
          <Menu.Item
            key={locale}
            lang={locale}
            aria-current={locale === current ? 'true' : undefined}
            rightSection={locale === current ? <Icon d={CHECK} size={16} /> : undefined}
            onClick={() => void chooseLanguage(locale)}
          >
            {LANGUAGE_NAMES[locale]}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item component="a" href="/account/logout" color="red.8">
          <FormattedMessage id="dashboard.logout" defaultMessage="Cerrar sesión" />
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
