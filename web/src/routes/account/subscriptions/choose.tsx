import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { countriesQuery } from '../../../features/accounts/api';
import { PageLoader } from '../../../features/accounts/session';
import { organizationQuery } from '../../../features/documents/api';
import { periodOf, subscriptionPageQuery } from '../../../features/subscription/api';
import { ChoosePage } from '../../../features/subscription/ChoosePage';

const search = z.object({
  plan: z.string().optional().catch(undefined),
  period: z.string().optional().catch(undefined),
});

export const Route = createFileRoute('/account/subscriptions/choose')({
  validateSearch: search,
  loader: ({ context }) => Promise.all([
    context.queryClient.ensureQueryData(countriesQuery()),
    context.queryClient.ensureQueryData(organizationQuery()),
    context.queryClient.ensureQueryData(subscriptionPageQuery()),
  ]),
  pendingComponent: PageLoader,
  component: function ChooseRoute() {
    const { plan, period } = Route.useSearch();
    const navigate = Route.useNavigate();
    return <ChoosePage plan={plan} period={periodOf(period)} onChange={(next) => navigate({ search: { plan: next.plan, period: next.period } })} />;
  },
});
