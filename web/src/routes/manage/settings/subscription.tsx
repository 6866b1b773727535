import { createFileRoute } from '@tanstack/react-router';
import { countriesQuery } from '../../../features/accounts/api';
import { PageLoader } from '../../../features/accounts/session';
import { organizationQuery } from '../../../features/documents/api';
import { subscriptionPageQuery } from '../../../features/subscription/api';
import { SubscriptionSettingsPage } from '../../../features/subscription/SubscriptionSettingsPage';

export const Route = createFileRoute('/manage/settings/subscription')({
  loader: ({ context }) => Promise.all([
    context.queryClient.ensureQueryData(subscriptionPageQuery()),
    context.queryClient.ensureQueryData(organizationQuery()),
    context.queryClient.ensureQueryData(countriesQuery()),
  ]),
  pendingComponent: PageLoader,
  component: SubscriptionSettingsPage,
});
