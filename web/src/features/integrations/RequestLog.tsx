import { Alert, Group, Pagination, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { errorText } from '../../api/client';
import { SectionCard } from '../../components/SectionCard';
import { Button, StatusBadge } from '../../components/variants';
import { requestsQuery, retryRequest } from './api';
import { label } from './labels';

const outcomeColor = { ok: 'green', partial: 'purple', failed: 'red', limited: 'red', session_expired: 'blue' } as const;

/** Every call made to the CRM, newest first, paginated by the server's headers; refused records are retried from here. */
export function RequestLog({ uuid }: { uuid: string }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const { data, error } = useQuery(requestsQuery(uuid, page));
  const [retryError, setRetryError] = useState<string>();
  const retry = async (id: string) => {
    setRetryError(undefined);
    try {
      await retryRequest(uuid, id);
      await queryClient.invalidateQueries({ queryKey: ['integrations', uuid] });
    } catch (e) {
      setRetryError(errorText(e));
    }
  };
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
      {(error || retryError) && (
        <Alert color="red" role="alert">
          {retryError ?? errorText(error)}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={720}>
        <Table striped aria-labelledby="crm-requests" data-testid="crm-requests">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <FormattedMessage id="crm.col.time" defaultMessage="Hora" />
              </Table.Th>
              <Table.Th>
                <FormattedMessage id="crm.col.call" defaultMessage="Llamada" />
              </Table.Th>
              <Table.Th>
                <FormattedMessage id="crm.col.records" defaultMessage="Registros" />
              </Table.Th>
              <Table.Th>
                <FormattedMessage id="crm.col.outcome" defaultMessage="Resultado" />
              </Table.Th>
              <Table.Th>
                <FormattedMessage id="crm.col.remaining" defaultMessage="Cupo restante" />
              </Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data?.requests.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>
                  <FormattedDate value={r.at} dateStyle="short" timeStyle="medium" />
                </Table.Td>
                <Table.Td>
                  {label(intl, r.operation)}
                  {r.object && (
                    <Text span c="dimmed" size="sm">
                      {' '}
                      · {r.object}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <FormattedNumber value={r.records} />
                </Table.Td>
                <Table.Td>
                  <StatusBadge color={outcomeColor[r.outcome as keyof typeof outcomeColor] ?? 'blue'}>{label(intl, r.outcome)}</StatusBadge>
                  {r.error && (
                    <Text size="xs" c="dimmed" mt={2} style={{ overflowWrap: 'anywhere' }}>
                      {r.error}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{r.remaining === null ? '—' : <FormattedMessage id="crm.remaining" defaultMessage="{left} de {limit}" values={{ left: r.remaining, limit: r.limit }} />}</Table.Td>
                <Table.Td>
                  {r.retryable > 0 && (
                    <Button variant="outline" size="sm" onClick={() => retry(r.id)}>
                      <FormattedMessage id="crm.retry" defaultMessage="Reintentar {count}" values={{ count: r.retryable }} />
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {data && data.totalPages > 1 && (
        <Group justify="center">
          <Pagination total={data.totalPages} value={page} onChange={setPage} size="sm" />
        </Group>
      )}
    </SectionCard>
  );
}
