import { createFileRoute } from '@tanstack/react-router';
import { PageLoader } from '../../../features/accounts/session';
import { loadGatewayPage, outcomeSearch } from '../../../features/gateways/api';
import { GatewaysPage } from '../../../features/gateways/GatewaysPage';

export const Route = createFileRoute('/manage/settings/gateways')({
  validateSearch: outcomeSearch,
  loader: ({ context }) => loadGatewayPage(context.queryClient),
  pendingComponent: PageLoader,
  component: GatewaysPage,
});
