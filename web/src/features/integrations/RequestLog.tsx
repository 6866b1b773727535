import { Alert, Group, Pagination, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { errorText } from '../../api/client';
import { CellNote, DataTable } from '../../components/DataTable';
import { SectionCard } from '../../components/SectionCard';
import { useRowAction } from '../../components/useRowAction';
import { Button, StatusBadge } from '../../components/variants';
import { requestsQuery, retryRequest, type CrmRequest } from './api';
import { label } from './labels';

const outcomeColor = { ok: 'green', partial: 'purple', failed: 'red', limited: 'red', session_expired: 'blue' } as const;

/** Every call made to the CRM, newest first, paginated by the server's headers; refused records are retried from here. */
export function RequestLog({ uuid }: { uuid: string }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const { data, error } = useQuery(requestsQuery(uuid, page));
  const retry = useRowAction();
  const columns: ColumnDef<CrmRequest, unknown>[] = [
    {
      id: 'time',
      header: () => <FormattedMessage id="crm.col.time" defaultMessage="Hora" />,
      cell: ({ row: { original: r } }) => <FormattedDate value={r.at} dateStyle="short" timeStyle="medium" />,
    },
    {
      id: 'call',
      header: () => <FormattedMessage id="crm.col.call" defaultMessage="Llamada" />,
      cell: ({ row: { original: r } }) => (
        <>
          {label(intl, r.operation)}
          {r.object && (
            <Text span c="dimmed" size="sm">
              {' '}
              · {r.object}
            </Text>
          )}
        </>
      ),
    },
    {
      id: 'records',
      header: () => <FormattedMessage id="crm.col.records" defaultMessage="Registros" />,
      cell: ({ row: { original: r } }) => <FormattedNumber value={r.records} />,
    },
    {
      id: 'outcome',
      header: () => <FormattedMessage id="crm.col.outcome" defaultMessage="Resultado" />,
      cell: ({ row: { original: r } }) => (
        <>
          <StatusBadge color={outcomeColor[r.outcome as keyof typeof outcomeColor] ?? 'blue'}>{label(intl, r.outcome)}</StatusBadge>
          {r.error && <CellNote>{r.error}</CellNote>}
        </>
      ),
    },
    {
      id: 'remaining',
      header: () => <FormattedMessage id="crm.col.remaining" defaultMessage="Cupo restante" />,
      cell: ({ row: { original: r } }) =>
        r.remaining === null ? '—' : <FormattedMessage id="crm.remaining" defaultMessage="{left} de {limit}" values={{ left: r.remaining, limit: r.limit }} />,
    },
    {
      id: 'retry',
      header: '',
      cell: ({ row: { original: r } }) =>
        r.retryable > 0 && (
          <Button
            variant="outline"
            size="sm"
            loading={retry.busy === r.id}
            onClick={() =>
              retry.run(r.id, async () => {
                await retryRequest(uuid, r.id);
                await queryClient.invalidateQueries({ queryKey: ['integrations', uuid] });
              })
            }
          >
            <FormattedMessage id="crm.retry" defaultMessage="Reintentar {count}" values={{ count: r.retryable }} />
          </Button>
        ),
    },
  ];
  return (
    <SectionCard
      id="crm-requests"
      title={<FormattedMessage id="crm.requests" defaultMessage="Registro de llamadas" />}
      aside={
        data && (
          <Text size="sm" c="dimmed">
            <FormattedMessage id="crm.requestsCount" defaultMessage="{count, plural, one {# llamada} other {# llamadas}}" values={{ count: data.totalCount }} />
          </Text>
        )
      }
    >
      {(error || retry.error) && (
        <Alert color="red" role="alert">
          {retry.error ?? errorText(error)}
        </Alert>
      )}
      <DataTable data={data?.requests ?? []} columns={columns} getRowId={(r) => r.id} minWidth={720} labelledBy="crm-requests" testId="crm-requests" />
      {data && data.totalPages > 1 && (
        <Group justify="center">
          <Pagination total={data.totalPages} value={page} onChange={setPage} size="sm" />
        </Group>
      )}
    </SectionCard>
  );
}
