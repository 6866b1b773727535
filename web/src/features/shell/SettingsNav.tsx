import { Anchor, Group, Stack } from '@mantine/core';
import { Link, Outlet } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import classes from './SettingsNav.module.css';

/** The settings area's own navigation above each settings page (Link marks the current one with aria-current). */
export function SettingsLayout() {
  const intl = useIntl();
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/manage/dashboard" size="sm">
        ← <FormattedMessage id="settings.back" defaultMessage="Volver al panel" />
      </Anchor>
      <nav aria-label={intl.formatMessage({ id: 'nav.settings', defaultMessage: 'Configuración' })} className={classes.tabs}>
        <Group gap="sm" wrap="nowrap">
          <Link to="/manage/settings/organization" className={classes.tab}>
            <FormattedMessage id="settings.organization" defaultMessage="Organización" />
          </Link>
          <Link to="/manage/settings/users" className={classes.tab}>
            <FormattedMessage id="settings.users" defaultMessage="Usuarios" />
          </Link>
          <Link to="/manage/settings/gateways" className={classes.tab}>
            <FormattedMessage id="gateways.settingsTitle" defaultMessage="Pasarelas de pago" />
          </Link>
          <Link to="/manage/settings/subscription" className={classes.tab}>
            <FormattedMessage id="billing.title" defaultMessage="Suscripción" />
          </Link>
        </Group>
      </nav>
      <Outlet />
    </Stack>
  );
}
