import { Alert, Checkbox, Code, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { ApiForm } from '../../components/ApiForm';
import { CopyButton } from '../../components/CopyLinkButton';
import { GenericModal } from '../../components/GenericModal';
import { PageHeader } from '../../components/PageHeader';
import { SectionCard } from '../../components/SectionCard';
import { useApiForm } from '../../components/useApiForm';
import { useRowAction } from '../../components/useRowAction';
import { Button, StatusBadge } from '../../components/variants';
import { createEndpoint, deleteEndpoint, patchEndpoint, rotateSecret, webhooksQuery, type WebhookEndpoint, type WebhookWithSecret } from './api';
import { DeliveryLog } from './DeliveryLog';
import { label } from './labels';

/** /manage/settings/webhooks: the organisation's endpoints, each with its delivery log, and the form that registers one. */
export function WebhooksPage() {
  const { data } = useSuspenseQuery(webhooksQuery());
  const [secret, setSecret] = useState<WebhookWithSecret>();
  return (
    <Stack gap="lg">
      <PageHeader
        title={<FormattedMessage id="webhooks.title" defaultMessage="Webhooks" />}
        lead={
          <FormattedMessage
            id="webhooks.lead"
            defaultMessage="Avisamos a tus sistemas cuando se crea, cambia o cancela una donación y cuando se aprueba o rechaza un cobro. Cada envío va firmado con el secreto del endpoint."
          />
        }
      />
      {data.endpoints.map((e) => (
        <EndpointCard key={e.id} endpoint={e} onSecret={setSecret} />
      ))}
      <SectionCard
        id="webhook-new"
        title={<FormattedMessage id="webhooks.new" defaultMessage="Agregar un endpoint" />}
        lead={
          <FormattedMessage
            id="webhooks.newLead"
            defaultMessage="Una dirección https pública de tu sistema. Si no responde con 2xx, reintentamos durante 72 horas."
          />
        }
      >
        <EndpointForm events={data.events} onCreated={setSecret} />
      </SectionCard>
      <SecretModal secret={secret} onClose={() => setSecret(undefined)} />
    </Stack>
  );
}

function EndpointForm({ events, onCreated }: { events: string[]; onCreated: (s: WebhookWithSecret) => void }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [url, setURL] = useState('');
  const [description, setDescription] = useState('');
  const [chosen, setChosen] = useState<string[]>(events);
  const form = useApiForm(async () => {
    const made = await createEndpoint({ url: url.trim(), description, events: chosen });
    await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
    setURL('');
    setDescription('');
    onCreated(made);
  });
  return (
    <ApiForm form={form} submit={<FormattedMessage id="webhooks.form.create" defaultMessage="Agregar endpoint" />}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={intl.formatMessage({ id: 'webhooks.form.url', defaultMessage: 'Dirección del endpoint' })}
          placeholder="https://"
          value={url}
          onChange={(e) => setURL(e.currentTarget.value)}
          error={form.fieldError('url')}
          required
          type="url"
          maxLength={2000}
        />
        <TextInput
          label={intl.formatMessage({ id: 'webhooks.form.description', defaultMessage: 'Descripción (opcional)' })}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={form.fieldError('description')}
          maxLength={200}
        />
      </SimpleGrid>
      <Checkbox.Group
        label={intl.formatMessage({ id: 'webhooks.form.events', defaultMessage: 'Eventos' })}
        value={chosen}
        onChange={setChosen}
        error={form.fieldError('events')}
        required
      >
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} mt="xs">
          {events.map((ev) => (
            <Checkbox key={ev} value={ev} label={label(intl, ev)} description={ev} />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
    </ApiForm>
  );
}

function EndpointCard({ endpoint: e, onSecret }: { endpoint: WebhookEndpoint; onSecret: (s: WebhookWithSecret) => void }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const { busy: pending, error, run } = useRowAction();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const act = (name: string, fn: () => Promise<unknown>) =>
    run(name, async () => {
      await fn();
      await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
    });
  const active = e.status === 'active';
  const titleId = `webhook-${e.id}`;
  return (
    <SectionCard
      id={titleId}
      title={<span style={{ overflowWrap: 'anywhere' }}>{e.url}</span>}
      lead={e.description || undefined}
      aside={
        <div style={{ flexShrink: 0 }}>
          <StatusBadge color={active ? 'green' : 'red'}>{label(intl, e.status)}</StatusBadge>
        </div>
      }
    >
      {!active && e.disabled_at && (
        <Alert color="red">
          <FormattedMessage
            id="webhooks.disabledNotice"
            defaultMessage="Desactivado el {date}: no recibe eventos. Actívalo cuando vuelva a funcionar y reenvía lo que falte."
            values={{ date: <FormattedDate value={e.disabled_at} dateStyle="medium" timeStyle="short" /> }}
          />
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group gap="xs">
        {e.events.map((ev) => (
          <Code key={ev}>{ev}</Code>
        ))}
      </Group>
      <Group gap="sm" wrap="wrap">
        <Button
          variant="outline"
          size="sm"
          loading={pending === 'status'}
          onClick={() => act('status', () => patchEndpoint(e.id, { status: active ? 'disabled' : 'active' }))}
        >
          {active ? <FormattedMessage id="webhooks.disable" defaultMessage="Desactivar" /> : <FormattedMessage id="webhooks.enable" defaultMessage="Activar" />}
        </Button>
        <Button variant="outline" size="sm" loading={pending === 'secret'} onClick={() => act('secret', async () => onSecret(await rotateSecret(e.id)))}>
          <FormattedMessage id="webhooks.rotate" defaultMessage="Cambiar secreto" />
        </Button>
        <Button variant="ghost" size="sm" onClick={() => setConfirmDelete(true)}>
          <FormattedMessage id="webhooks.delete" defaultMessage="Eliminar" />
        </Button>
      </Group>
      <DeliveryLog endpointId={e.id} active={active} />
      <GenericModal
        opened={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        pending={pending === 'delete'}
        title={<FormattedMessage id="webhooks.deleteTitle" defaultMessage="¿Eliminar este endpoint?" />}
        subtitle={e.url}
      >
        <Stack gap="md">
          <Text size="sm">
            <FormattedMessage id="webhooks.deleteBody" defaultMessage="Dejará de recibir eventos y se borrará su registro de entregas." />
          </Text>
          <Group justify="flex-end">
            <Button variant="outline" onClick={() => setConfirmDelete(false)}>
              <FormattedMessage id="webhooks.cancel" defaultMessage="Cancelar" />
            </Button>
            <Button variant="destructive" loading={pending === 'delete'} onClick={() => act('delete', () => deleteEndpoint(e.id))}>
              <FormattedMessage id="webhooks.delete" defaultMessage="Eliminar" />
            </Button>
          </Group>
        </Stack>
      </GenericModal>
    </SectionCard>
  );
}

/** The endpoint's secret, shown this once (on creation or rotation), with how to check a signature. */
function SecretModal({ secret, onClose }: { secret?: WebhookWithSecret; onClose: () => void }) {
  return (
    <GenericModal
      opened={secret !== undefined}
      onClose={onClose}
      dismissible={false}
      title={<FormattedMessage id="webhooks.secretTitle" defaultMessage="El secreto del endpoint" />}
      subtitle={secret?.endpoint.url}
    >
      <Stack gap="md">
        <Alert color="yellow">
          <FormattedMessage
            id="webhooks.secretOnce"
            defaultMessage="Guárdalo ahora en tu sistema: no lo volveremos a mostrar. Si lo pierdes, cámbialo por uno nuevo."
          />
        </Alert>
        <Code block data-testid="webhook-secret" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {secret?.secret}
        </Code>
        <Text size="sm">
          <FormattedMessage
            id="webhooks.secretHow"
            defaultMessage="Cada envío trae la cabecera Aporta-Signature: t=SEGUNDOS,v1=FIRMA. La firma es HMAC-SHA256 con este secreto de t, un punto y el cuerpo tal como llegó. Rechaza los envíos con t de más de 5 minutos."
          />
        </Text>
        <Group justify="flex-end">
          {secret && (
            <CopyButton
              value={secret.secret}
              copy={<FormattedMessage id="webhooks.secretCopy" defaultMessage="Copiar secreto" />}
              copied={<FormattedMessage id="webhooks.secretCopied" defaultMessage="¡Secreto copiado!" />}
            />
          )}
          <Button onClick={onClose}>
            <FormattedMessage id="webhooks.secretDone" defaultMessage="Ya lo guardé" />
          </Button>
        </Group>
      </Stack>
    </GenericModal>
  );
}
