import { createFileRoute } from '@tanstack/react-router';
import { webhooksQuery } from '../../../features/webhooks/api';
import { WebhooksPage } from '../../../features/webhooks/WebhooksPage';

export const Route = createFileRoute('/manage/settings/webhooks')({
  loader: ({ context }) => context.queryClient.ensureQueryData(webhooksQuery()),
  component: WebhooksPage,
});
