import { Alert, Anchor, Group, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { PageHeader } from '../../components/PageHeader';
import { SectionCard } from '../../components/SectionCard';
import { useRowAction } from '../../components/useRowAction';
import { Button, StatusBadge } from '../../components/variants';
import { patchSetup, resync, setupQuery } from './api';
import { ConnectionForm } from './ConnectionForm';
import { label } from './labels';
import { RequestLog } from './RequestLog';
import { RulesSection } from './RulesSection';

/** /manage/settings/integrations/{uuid}: one integration's state, connection, mappings and request log. */
export function SetupPage({ uuid }: { uuid: string }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const { data: setup } = useSuspenseQuery(setupQuery(uuid));
  const { busy, error, run } = useRowAction();
  const refresh = (next?: typeof setup) => {
    if (next) queryClient.setQueryData(setupQuery(uuid).queryKey, next);
    return queryClient.invalidateQueries({ queryKey: ['integrations'] });
  };
  const act = (what: string, fn: () => Promise<typeof setup>) => run(what, async () => refresh(await fn()));
  const { pending, failed, resync_total: total } = setup.progress;
  const done = total > 0 ? Math.max(0, Math.min(total, total - pending)) : 0;
  const paused = setup.status === 'paused';

  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/manage/settings/integrations" size="sm">
        ← <FormattedMessage id="crm.back" defaultMessage="Integraciones" />
      </Anchor>
      <PageHeader
        title={setup.name}
        lead={setup.auth.login_url}
        action={
          <StatusBadge color={setup.status === 'active' ? 'green' : paused ? 'blue' : 'red'}>{label(intl, setup.status)}</StatusBadge>
        }
      />
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {setup.last_error && (
        <Alert color="red" role="alert" title={<FormattedMessage id="crm.attention" defaultMessage="La sincronización está detenida" />}>
          {setup.last_error}
        </Alert>
      )}
      <SectionCard id="crm-sync" title={<FormattedMessage id="crm.sync" defaultMessage="Sincronización" />}>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Stat label={<FormattedMessage id="crm.pending" defaultMessage="Cambios por enviar" />} testId="crm-pending">
            <FormattedNumber value={pending} />
          </Stat>
          <Stat label={<FormattedMessage id="crm.failedRecords" defaultMessage="Registros rechazados" />}>
            <FormattedNumber value={failed} />
          </Stat>
          <Stat label={<FormattedMessage id="crm.budget" defaultMessage="Cupo diario del CRM" />}>
            {setup.usage ? (
              <FormattedMessage
                id="crm.budgetUsed"
                defaultMessage="{used} de {max} llamadas usadas"
                values={{ used: <FormattedNumber value={setup.usage.used} />, max: <FormattedNumber value={setup.usage.max} /> }}
              />
            ) : (
              '—'
            )}
          </Stat>
        </SimpleGrid>
        {setup.parked_until && new Date(setup.parked_until) > new Date() && (
          <Alert color="yellow">
            <FormattedMessage
              id="crm.parked"
              defaultMessage="El CRM agotó su cupo diario: seguimos a partir de las {time}. No se pierde ningún cambio."
              values={{ time: <FormattedDate value={setup.parked_until} timeStyle="short" dateStyle="short" /> }}
            />
          </Alert>
        )}
        {setup.progress.resync_started_at && total > 0 && (
          <div>
            <Text size="sm" id="crm-resync-label">
              <FormattedMessage
                id="crm.resyncProgress"
                defaultMessage="Sincronización completa: {done} de {total} registros"
                values={{ done: <FormattedNumber value={done} />, total: <FormattedNumber value={total} /> }}
              />
            </Text>
            <Progress value={(done / total) * 100} aria-labelledby="crm-resync-label" mt={4} />
          </div>
        )}
        <Group gap="sm">
          <Button variant="secondary" loading={busy === 'resync'} onClick={() => act('resync', () => resync(uuid))}>
            <FormattedMessage id="crm.resync" defaultMessage="Sincronizar todo" />
          </Button>
          <Button variant="outline" loading={busy === 'status'} onClick={() => act('status', () => patchSetup(uuid, { status: paused ? 'active' : 'paused' }))}>
            {paused ? <FormattedMessage id="crm.resume" defaultMessage="Reanudar" /> : <FormattedMessage id="crm.pause" defaultMessage="Pausar" />}
          </Button>
        </Group>
      </SectionCard>
      <RulesSection setup={setup} onChange={() => queryClient.invalidateQueries({ queryKey: setupQuery(uuid).queryKey })} />
      <RequestLog uuid={uuid} />
      <SectionCard id="crm-connection" title={<FormattedMessage id="crm.connection" defaultMessage="Conexión" />}>
        <ConnectionForm setup={setup} onSave={async (fields) => refresh(await patchSetup(uuid, fields))} />
      </SectionCard>
    </Stack>
  );
}

/** One figure of the sync card: its name over the figure. */
function Stat({ label, testId, children }: { label: ReactNode; testId?: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} data-testid={testId}>
        {children}
      </Text>
    </div>
  );
}
