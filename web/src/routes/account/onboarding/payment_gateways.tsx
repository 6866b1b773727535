import { createFileRoute } from '@tanstack/react-router';
import { PaymentGatewaysPage } from '../../../features/onboarding/PaymentGatewaysPage';

export const Route = createFileRoute('/account/onboarding/payment_gateways')({ component: PaymentGatewaysPage });
