import { createFileRoute } from '@tanstack/react-router';
import { integrationsQuery } from '../../../../features/integrations/api';
import { IntegrationsPage } from '../../../../features/integrations/IntegrationsPage';

export const Route = createFileRoute('/manage/settings/integrations/')({
  loader: ({ context }) => context.queryClient.ensureQueryData(integrationsQuery()),
  component: IntegrationsPage,
});
