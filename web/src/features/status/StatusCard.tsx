import { Alert, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { readinessQuery, type Readiness } from '../../api/readiness';
import { GenericTable } from '../../components/GenericTable';
import { Button, StatusBadge } from '../../components/variants';
import { SectionCard } from '../../components/SectionCard';

type Check = Readiness['checks'][number];

const up = <FormattedMessage id="status.up" defaultMessage="Activo" />;
const down = <FormattedMessage id="status.down" defaultMessage="Caído" />;

/** Live view of GET /readyz: one row per dependency the server checks. */
export function StatusCard() {
  const intl = useIntl();
  const query = useQuery(readinessQuery());
  const columns = useMemo<ColumnDef<Check, unknown>[]>(
    () => [
      { id: 'name', header: intl.formatMessage({ id: 'status.dependency', defaultMessage: 'Dependencia' }), accessorKey: 'name' },
      {
        id: 'ok',
        header: intl.formatMessage({ id: 'status.state', defaultMessage: 'Estado' }),
        cell: ({ row }) => <StatusBadge color={row.original.ok ? 'green' : 'red'}>{row.original.ok ? up : down}</StatusBadge>,
      },
      { id: 'error', header: intl.formatMessage({ id: 'status.detail', defaultMessage: 'Detalle' }), accessorKey: 'error' },
    ],
    [intl],
  );

  return (
    <SectionCard
      id="status-title"
      title={<FormattedMessage id="status.title" defaultMessage="Estado del servicio" />}
      lead={<FormattedMessage id="status.subtitle" defaultMessage="Se actualiza cada 30 segundos." />}
      aside={
        query.data && (
          <StatusBadge color={query.data.status === 'ok' ? 'green' : 'red'}>
            {query.data.status === 'ok' ? (
              <FormattedMessage id="status.ok" defaultMessage="Operativo" />
            ) : (
              <FormattedMessage id="status.degraded" defaultMessage="Degradado" />
            )}
          </StatusBadge>
        )
      }
    >
      {query.isPending && (
        <Stack gap="xs" aria-busy>
          <Skeleton h={20} />
          <Skeleton h={20} />
          <Skeleton h={20} />
        </Stack>
      )}
      {query.isError && (
        <Alert color="red" variant="light" role="alert" title={<FormattedMessage id="status.unreachable" defaultMessage="No pudimos consultar el estado del servicio" />}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{query.error.message}</Text>
            <Button variant="outline" size="sm" onClick={() => query.refetch()} loading={query.isFetching}>
              <FormattedMessage id="status.retry" defaultMessage="Reintentar" />
            </Button>
          </Stack>
        </Alert>
      )}
      {query.data && query.data.checks.length > 0 && (
        <GenericTable
          data={query.data.checks}
          columns={columns}
          caption={<FormattedMessage id="status.tableCaption" defaultMessage="Dependencias" />}
        />
      )}
    </SectionCard>
  );
}
