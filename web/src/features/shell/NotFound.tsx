import { Button, Paper } from '@mantine/core';
import { Link, useRouterState } from '@tanstack/react-router';
import { FormattedMessage } from 'react-intl';
import { EmptyState } from '../../components/EmptyState';

/** The area an unknown path is in: its not-found page sits in that area's shell and leads back to its start. */
function areaHome(pathname: string) {
  if (pathname === '/manage' || pathname.startsWith('/manage/')) return '/manage/dashboard';
  if (pathname === '/staff' || pathname.startsWith('/staff/')) return '/staff';
  return '/';
}

export function NotFound() {
  const home = useRouterState({ select: (s) => areaHome(s.location.pathname) });
  return (
    <Paper withBorder p="xl" radius="lg">
      <EmptyState
        order={1}
        title={<FormattedMessage id="notFound.title" defaultMessage="No encontramos esta página" />}
        description={<FormattedMessage id="notFound.description" defaultMessage="Puede que el enlace esté mal escrito o que la página ya no exista." />}
      />
      <Button component={Link} to={home} display="block" mx="auto" w="fit-content">
        <FormattedMessage id="notFound.home" defaultMessage="Volver al inicio" />
      </Button>
    </Paper>
  );
}
