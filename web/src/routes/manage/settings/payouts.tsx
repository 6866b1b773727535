import { createFileRoute } from '@tanstack/react-router';
import { PageLoader } from '../../../features/accounts/session';
import { payoutsQuery } from '../../../features/payouts/api';
import { PayoutsPage } from '../../../features/payouts/PayoutsPage';

export const Route = createFileRoute('/manage/settings/payouts')({
  loader: ({ context }) => context.queryClient.ensureQueryData(payoutsQuery(1)),
  pendingComponent: PageLoader,
  component: PayoutsPage,
});
