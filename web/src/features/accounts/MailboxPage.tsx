import { Badge, Code, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { apiFetch } from '../../api/client';
import { EmptyState } from '../../components/EmptyState';
import { LoadError, PageLoader } from './session';
import { PageHeader } from '../../components/PageHeader';

export interface OutboxMessage {
  id: number;
  recipient: string;
  message_type: 'email' | 'sms' | string;
  subject: string;
  body: string;
  template_type: string;
  code: string;
  created_at: string;
  error?: string;
}

export const outboxQuery = (to: string) => ({
  queryKey: ['outbox', to],
  queryFn: async ({ signal }: { signal: AbortSignal }) =>
    (await apiFetch<{ messages: OutboxMessage[] }>(`/dev/api/outbox?${new URLSearchParams(to ? { to } : {})}`, { signal })).messages ?? [],
  refetchInterval: 3000,
  retry: false,
});

/** Dev and test only: the messages the platform "sent", with each one-time code shown large. */
export function MailboxPage() {
  const intl = useIntl();
  const [to, setTo] = useState('');
  const { data, error, isPending } = useQuery(outboxQuery(to.trim()));
  return (
    <Stack gap="lg">
      <PageHeader
        title={<FormattedMessage id="mailbox.title" defaultMessage="Buzón de desarrollo" />}
        lead={<FormattedMessage id="mailbox.lead" defaultMessage="E-mails y SMS que la plataforma envió en este entorno. Solo existe en desarrollo y pruebas." />}
        action={
          <TextInput
            label={<FormattedMessage id="mailbox.filter" defaultMessage="Destinatario" />}
            placeholder={intl.formatMessage({ id: 'mailbox.filterPlaceholder', defaultMessage: 'e-mail o +54…' })}
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            w={{ base: '100%', sm: 280 }}
          />
        }
      />
      {isPending ? (
        <PageLoader />
      ) : !data ? (
        <LoadError error={error} />
      ) : data.length === 0 ? (
        <Paper withBorder radius="lg">
          <EmptyState
            title={<FormattedMessage id="mailbox.empty" defaultMessage="No hay mensajes" />}
            description={<FormattedMessage id="mailbox.emptyBody" defaultMessage="Los códigos de verificación aparecerán aquí en cuanto se envíen." />}
          />
        </Paper>
      ) : (
        <Stack gap="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {data.map((m) => (
            <Paper key={m.id} component="li" withBorder radius="lg" p="md" data-message={m.id}>
              <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
                <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                  <Group gap="xs">
                    <Badge variant="light" color={m.message_type === 'sms' ? 'grape' : 'blue'}>
                      {m.message_type === 'sms' ? 'SMS' : 'E-mail'}
                    </Badge>
                    <Text fw={700} style={{ wordBreak: 'break-all' }}>
                      {m.recipient}
                    </Text>
                  </Group>
                  {m.subject && <Text size="sm">{m.subject}</Text>}
                  <Text size="xs" c="dimmed">
                    <FormattedDate value={m.created_at} dateStyle="medium" timeStyle="medium" />
                  </Text>
                </Stack>
                {m.code && (
                  <Stack gap={0} align="flex-end">
                    <Text size="xs" c="dimmed">
                      <FormattedMessage id="mailbox.code" defaultMessage="Código" />
                    </Text>
                    <Text fz={28} fw={800} ff="monospace" lts={4} data-code>
                      {m.code}
                    </Text>
                  </Stack>
                )}
              </Group>
              <Code block mt="sm" style={{ whiteSpace: 'pre-wrap', maxHeight: 160, overflow: 'auto' }}>
                {m.body}
              </Code>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
