import { Alert, Group, Pagination, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { errorText } from '../../api/client';
import { actionsColumn, CellNote, DataTable } from '../../components/DataTable';
import { useRowAction } from '../../components/useRowAction';
import { Button, StatusBadge } from '../../components/variants';
import { deliveriesQuery, resendDelivery, type WebhookDelivery } from './api';
import { label } from './labels';

const statusColor = { delivered: 'green', pending: 'blue', failed: 'red' } as const;

/** An endpoint's deliveries, newest first: the last attempt's answer, how long it took and why it failed; each can be sent again. */
export function DeliveryLog({ endpointId, active }: { endpointId: string; active: boolean }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const { data, error } = useQuery(deliveriesQuery(endpointId, page));
  const resend = useRowAction();
  const columns: ColumnDef<WebhookDelivery, unknown>[] = [
    {
      id: 'time',
      header: () => <FormattedMessage id="webhooks.col.time" defaultMessage="Hora" />,
      cell: ({ row: { original: d } }) => <FormattedDate value={d.last_attempt_at ?? d.created_at} dateStyle="short" timeStyle="medium" />,
    },
    {
      id: 'event',
      header: () => <FormattedMessage id="webhooks.col.event" defaultMessage="Evento" />,
      cell: ({ row: { original: d } }) => (
        <>
          {label(intl, d.event_type)}
          <Text size="xs" c="dimmed" ff="monospace">
            {d.event_type}
            {d.resent_from && (
              <>
                {' · '}
                <FormattedMessage id="webhooks.resent" defaultMessage="reenvío" />
              </>
            )}
          </Text>
        </>
      ),
    },
    {
      id: 'status',
      header: () => <FormattedMessage id="webhooks.col.status" defaultMessage="Estado" />,
      cell: ({ row: { original: d } }) => (
        <div style={{ width: 'max-content' }}>
          <StatusBadge color={statusColor[d.status as keyof typeof statusColor] ?? 'blue'}>{label(intl, d.status)}</StatusBadge>
        </div>
      ),
    },
    {
      id: 'attempts',
      header: () => <FormattedMessage id="webhooks.col.attempts" defaultMessage="Intentos" />,
      cell: ({ row: { original: d } }) => <FormattedNumber value={d.attempts} />,
    },
    {
      id: 'answer',
      header: () => <FormattedMessage id="webhooks.col.answer" defaultMessage="Respuesta" />,
      cell: ({ row: { original: d } }) => (
        <>
          {d.last_status_code ? `HTTP ${d.last_status_code}` : '—'}
          {d.last_error && <CellNote>{d.last_error}</CellNote>}
        </>
      ),
    },
    {
      id: 'duration',
      header: () => <FormattedMessage id="webhooks.col.duration" defaultMessage="Duración" />,
      cell: ({ row: { original: d } }) =>
        d.last_duration_ms === null ? '—' : <FormattedNumber value={d.last_duration_ms} style="unit" unit="millisecond" unitDisplay="short" />,
    },
    actionsColumn(<FormattedMessage id="webhooks.col.actions" defaultMessage="Acciones" />, (d) => (
      <Button
        variant="outline"
        size="sm"
        disabled={!active}
        loading={resend.busy === d.id}
        onClick={() =>
          resend.run(d.id, async () => {
            await resendDelivery(endpointId, d.id);
            setPage(1);
            await queryClient.invalidateQueries({ queryKey: ['webhooks', endpointId, 'deliveries'] });
          })
        }
      >
        <FormattedMessage id="webhooks.resend" defaultMessage="Reenviar" />
      </Button>
    )),
  ];
  const captionId = `webhook-log-${endpointId}`;
  return (
    <div>
      <Text fw={600} id={captionId} mb="xs">
        <FormattedMessage id="webhooks.log" defaultMessage="Registro de entregas" />
      </Text>
      {(error || resend.error) && (
        <Alert color="red" role="alert" mb="xs">
          {resend.error ?? errorText(error)}
        </Alert>
      )}
      <DataTable
        data={data?.deliveries ?? []}
        columns={columns}
        getRowId={(d) => d.id}
        minWidth={720}
        labelledBy={captionId}
        testId="webhook-deliveries"
        empty={
          data && (
            <Text size="sm" c="dimmed">
              <FormattedMessage id="webhooks.logEmpty" defaultMessage="Todavía no hubo eventos para este endpoint." />
            </Text>
          )
        }
      />
      {data && data.total_pages > 1 && (
        <Group justify="center" mt="xs">
          <Pagination total={data.total_pages} value={page} onChange={setPage} size="sm" />
        </Group>
      )}
    </div>
  );
}
