import { Button, Paper } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { FormattedMessage } from 'react-intl';
import { EmptyState } from '../../components/EmptyState';

export function NotFound() {
  return (
    <Paper withBorder p="xl" radius="lg">
      <EmptyState
        title={<FormattedMessage id="notFound.title" defaultMessage="No encontramos esta página" />}
        description={<FormattedMessage id="notFound.description" defaultMessage="Puede que el enlace esté mal escrito o que la página ya no exista." />}
      />
      <Button component={Link} to="/" display="block" mx="auto" w="fit-content">
        <FormattedMessage id="notFound.home" defaultMessage="Volver al inicio" />
      </Button>
    </Paper>
  );
}
