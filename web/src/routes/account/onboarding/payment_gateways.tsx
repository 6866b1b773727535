import { createFileRoute } from '@tanstack/react-router';
import { PageLoader } from '../../../features/accounts/session';
import { loadGatewayPage, outcomeSearch } from '../../../features/gateways/api';
import { PaymentGatewaysPage } from '../../../features/onboarding/PaymentGatewaysPage';

export const Route = createFileRoute('/account/onboarding/payment_gateways')({
  validateSearch: outcomeSearch,
  loader: ({ context }) => loadGatewayPage(context.queryClient),
  pendingComponent: PageLoader,
  component: PaymentGatewaysPage,
});
