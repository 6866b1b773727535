import { Anchor, Badge, Paper, Stack } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { FormattedMessage, FormattedRelativeTime, useIntl } from 'react-intl';
import { DataTable } from '../../components/DataTable';
import { EmptyState } from '../../components/EmptyState';
import { byOldest, waitingQuery, type WaitingOrganization } from './api';
import { PageHeader } from '../../components/PageHeader';

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
  const { data } = useSuspenseQuery(waitingQuery()); // the route's loader has it in the cache
  const list = byOldest(data);
  const columns: ColumnDef<WaitingOrganization, unknown>[] = [
    {
      id: 'name',
      header: intl.formatMessage({ id: 'staff.col.name', defaultMessage: 'Organización' }),
      cell: ({ row: { original: o } }) => (
        <Anchor fw={600} renderRoot={(props) => <Link {...props} to="/staff/organizations/$id" params={{ id: o.id }} />}>
          {o.name}
        </Anchor>
      ),
    },
    { id: 'country', header: intl.formatMessage({ id: 'staff.col.country', defaultMessage: 'País' }), cell: ({ row: { original: o } }) => intl.formatDisplayName(o.country, { type: 'region' }) ?? o.country },
    {
      id: 'requested',
      header: intl.formatMessage({ id: 'staff.col.requested', defaultMessage: 'Solicitó' }),
      cell: ({ row: { original: o } }) => (
        <FormattedRelativeTime value={Math.round((new Date(o.review_requested_at).getTime() - Date.now()) / 3_600_000)} unit="hour" numeric="auto" />
      ),
    },
    { id: 'left', header: intl.formatMessage({ id: 'staff.col.left', defaultMessage: 'Tiempo restante' }), cell: ({ row: { original: o } }) => <TimeLeft hours={o.hours_left} overdue={o.overdue} /> },
  ];
  return (
    <Stack gap="lg">
      <PageHeader
        title={<FormattedMessage id="staff.title" defaultMessage="Organizaciones por verificar" />}
        lead={<FormattedMessage id="staff.lead" defaultMessage="La más antigua primero. Objetivo: responder en menos de 48 horas." />}
      />
      <Paper withBorder radius="lg" p={{ base: 'xs', sm: 'md' }}>
        <DataTable
          data={list}
          columns={columns}
          getRowId={(o) => o.id}
          rowAttributes={(o) => ({ 'data-org': o.id })}
          minWidth={520}
          caption={<FormattedMessage id="staff.caption" defaultMessage="Organizaciones esperando verificación" />}
          empty={
            <EmptyState
              title={<FormattedMessage id="staff.empty" defaultMessage="No hay organizaciones esperando" />}
              description={<FormattedMessage id="staff.emptyBody" defaultMessage="Cuando una organización envíe sus documentos aparecerá aquí." />}
            />
          }
        />
      </Paper>
    </Stack>
  );
}
