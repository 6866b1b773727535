import { Anchor, Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { FormattedMessage, FormattedRelativeTime, useIntl } from 'react-intl';
import { EmptyState } from '../../components/EmptyState';
import { LoadError, PageLoader, useRedirectOnSignedOut } from '../accounts/session';
import { needsStaffSecondFactor, SecondFactorRequired } from './SecondFactorRequired';
import { byOldest, waitingQuery } from './api';

export function TimeLeft({ hours, overdue }: { hours: number; overdue?: boolean }) {
  if (overdue || hours <= 0)
    return (
      <Badge color="red" variant="filled">
        <FormattedMessage id="staff.overdue" defaultMessage="Vencido" />
      </Badge>
    );
  return (
    <Badge color={hours <= 8 ? 'orange' : 'teal'} variant="light">
      <FormattedMessage id="staff.hoursLeft" defaultMessage="{hours, plural, one {queda # h} other {quedan # h}}" values={{ hours }} />
    </Badge>
  );
}

export function StaffListPage() {
  const intl = useIntl();
  const { data, error, isPending } = useQuery(waitingQuery());
  useRedirectOnSignedOut(error);
  if (isPending) return <PageLoader />;
  if (needsStaffSecondFactor(error)) return <SecondFactorRequired />;
  if (!data) return <LoadError error={error} />;
  const list = byOldest(data);
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          <FormattedMessage id="staff.title" defaultMessage="Organizaciones por verificar" />
        </Title>
        <Text c="dimmed" mt={4}>
          <FormattedMessage id="staff.lead" defaultMessage="La más antigua primero. Objetivo: responder en menos de 48 horas." />
        </Text>
      </div>
      <Paper withBorder radius="lg" p={{ base: 'xs', sm: 'md' }}>
        {list.length === 0 ? (
          <EmptyState
            title={<FormattedMessage id="staff.empty" defaultMessage="No hay organizaciones esperando" />}
            description={<FormattedMessage id="staff.emptyBody" defaultMessage="Cuando una organización envíe sus documentos aparecerá aquí." />}
          />
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Caption>
                <FormattedMessage id="staff.caption" defaultMessage="Organizaciones esperando verificación" />
              </Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">
                    <FormattedMessage id="staff.col.name" defaultMessage="Organización" />
                  </Table.Th>
                  <Table.Th scope="col">
                    <FormattedMessage id="staff.col.country" defaultMessage="País" />
                  </Table.Th>
                  <Table.Th scope="col">
                    <FormattedMessage id="staff.col.requested" defaultMessage="Solicitó" />
                  </Table.Th>
                  <Table.Th scope="col">
                    <FormattedMessage id="staff.col.left" defaultMessage="Tiempo restante" />
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((o) => (
                  <Table.Tr key={o.id} data-org={o.id}>
                    <Table.Td>
                      <Anchor fw={600} renderRoot={(props) => <Link {...props} to="/staff/organizations/$id" params={{ id: o.id }} />}>
                        {o.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{intl.formatDisplayName(o.country, { type: 'region' }) ?? o.country}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        <FormattedRelativeTime
                          value={Math.round((new Date(o.review_requested_at).getTime() - Date.now()) / 3_600_000)}
                          unit="hour"
                          numeric="auto"
                        />
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <TimeLeft hours={o.hours_left} overdue={o.overdue} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
    </Stack>
  );
}
