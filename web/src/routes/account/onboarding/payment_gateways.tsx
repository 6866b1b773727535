import { createFileRoute } from '@tanstack/react-router';
import { WithUser } from '../../../features/accounts/session';
import { PaymentGatewaysPage } from '../../../features/onboarding/PaymentGatewaysPage';

export const Route = createFileRoute('/account/onboarding/payment_gateways')({
  component: () => <WithUser>{() => <PaymentGatewaysPage />}</WithUser>,
});
