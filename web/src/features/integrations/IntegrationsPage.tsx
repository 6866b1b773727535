import { Anchor, Group, Stack, Text } from '@mantine/core';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { PageHeader } from '../../components/PageHeader';
import { SectionCard } from '../../components/SectionCard';
import { StatusBadge } from '../../components/variants';
import { createIntegration, integrationsQuery } from './api';
import { ConnectionForm } from './ConnectionForm';
import { label } from './labels';

/** /manage/settings/integrations: the organisation's CRM integrations and the form that connects one. */
export function IntegrationsPage() {
  const intl = useIntl();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: integrations } = useSuspenseQuery(integrationsQuery());
  return (
    <Stack gap="lg">
      <PageHeader
        title={<FormattedMessage id="crm.title" defaultMessage="Integraciones con CRM" />}
        lead={
          <FormattedMessage
            id="crm.lead"
            defaultMessage="Envía tus donantes, campañas y donaciones a tu CRM (Salesforce con Nonprofit Success Pack u otro compatible)."
          />
        }
      />
      {integrations.length > 0 && (
        <SectionCard id="crm-list" title={<FormattedMessage id="crm.list" defaultMessage="Tus integraciones" />}>
          <Stack gap="xs">
            {integrations.map((i) => (
              <Group key={i.uuid} justify="space-between" wrap="wrap">
                <div>
                  <Anchor fw={600} renderRoot={(props) => <Link {...props} to="/manage/settings/integrations/$uuid" params={{ uuid: i.uuid }} />}>
                    {i.name}
                  </Anchor>
                  <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {i.login_url}
                  </Text>
                </div>
                <StatusBadge color={i.status === 'active' ? 'green' : i.status === 'paused' ? 'blue' : 'red'}>{label(intl, i.status)}</StatusBadge>
              </Group>
            ))}
          </Stack>
        </SectionCard>
      )}
      <SectionCard
        id="crm-connect"
        title={<FormattedMessage id="crm.connect" defaultMessage="Conectar un CRM" />}
        lead={
          <FormattedMessage
            id="crm.connectLead"
            defaultMessage="Crea una app conectada con el flujo de credenciales de cliente y un campo External ID en cada objeto. Probamos la conexión antes de guardarla."
          />
        }
      >
        <ConnectionForm
          onSave={async (fields) => {
            const setup = await createIntegration(fields);
            await queryClient.invalidateQueries({ queryKey: ['integrations'] });
            await navigate({ to: '/manage/settings/integrations/$uuid', params: { uuid: setup.uuid } });
          }}
        />
      </SectionCard>
    </Stack>
  );
}
