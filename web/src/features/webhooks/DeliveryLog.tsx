import { Alert, Group, Pagination, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { errorText } from '../../api/client';
import { Button, StatusBadge } from '../../components/variants';
import { deliveriesQuery, resendDelivery } from './api';
import { label } from './labels';

const statusColor = { delivered: 'green', pending: 'blue', failed: 'red' } as const;

/** An endpoint's deliveries, newest first: the last attempt's answer, how long it took and why it failed; each can be sent again. */
export function DeliveryLog({ endpointId, active }: { endpointId: string; active: boolean }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const { data, error } = useQuery(deliveriesQuery(endpointId, page));
  const [resendError, setResendError] = useState<string>();
  const [resending, setResending] = useState<string>();
  const resend = async (id: string) => {
    setResendError(undefined);
    setResending(id);
    try {
      await resendDelivery(endpointId, id);
      setPage(1);
      await queryClient.invalidateQueries({ queryKey: ['webhooks', endpointId, 'deliveries'] });
    } catch (e) {
      setResendError(errorText(e));
    } finally {
      setResending(undefined);
    }
  };
  const captionId = `webhook-log-${endpointId}`;
  return (
    <div>
      <Text fw={600} id={captionId} mb="xs">
        <FormattedMessage id="webhooks.log" defaultMessage="Registro de entregas" />
      </Text>
      {(error || resendError) && (
        <Alert color="red" role="alert" mb="xs">
          {resendError ?? errorText(error)}
        </Alert>
      )}
      {data && data.deliveries.length === 0 ? (
        <Text size="sm" c="dimmed">
          <FormattedMessage id="webhooks.logEmpty" defaultMessage="Todavía no hubo eventos para este endpoint." />
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped aria-labelledby={captionId} data-testid="webhook-deliveries">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <FormattedMessage id="webhooks.col.time" defaultMessage="Hora" />
                </Table.Th>
                <Table.Th>
                  <FormattedMessage id="webhooks.col.event" defaultMessage="Evento" />
                </Table.Th>
                <Table.Th>
                  <FormattedMessage id="webhooks.col.status" defaultMessage="Estado" />
                </Table.Th>
                <Table.Th>
                  <FormattedMessage id="webhooks.col.attempts" defaultMessage="Intentos" />
                </Table.Th>
                <Table.Th>
                  <FormattedMessage id="webhooks.col.answer" defaultMessage="Respuesta" />
                </Table.Th>
                <Table.Th>
                  <FormattedMessage id="webhooks.col.duration" defaultMessage="Duración" />
                </Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.deliveries.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>
                    <FormattedDate value={d.last_attempt_at ?? d.created_at} dateStyle="short" timeStyle="medium" />
                  </Table.Td>
                  <Table.Td>
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
                  </Table.Td>
                  <Table.Td>
                    <div style={{ width: 'max-content' }}>
                      <StatusBadge color={statusColor[d.status as keyof typeof statusColor] ?? 'blue'}>{label(intl, d.status)}</StatusBadge>
                    </div>
                  </Table.Td>
                  <Table.Td>
                    <FormattedNumber value={d.attempts} />
                  </Table.Td>
                  <Table.Td>
                    {d.last_status_code ? `HTTP ${d.last_status_code}` : '—'}
                    {d.last_error && (
                      <Text size="xs" c="dimmed" mt={2} style={{ overflowWrap: 'anywhere' }}>
                        {d.last_error}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{d.last_duration_ms === null ? '—' : <FormattedNumber value={d.last_duration_ms} style="unit" unit="millisecond" unitDisplay="short" />}</Table.Td>
                  <Table.Td>
                    <Button variant="outline" size="sm" disabled={!active} loading={resending === d.id} onClick={() => resend(d.id)}>
                      <FormattedMessage id="webhooks.resend" defaultMessage="Reenviar" />
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {data && data.total_pages > 1 && (
        <Group justify="center" mt="xs">
          <Pagination total={data.total_pages} value={page} onChange={setPage} size="sm" />
        </Group>
      )}
    </div>
  );
}
