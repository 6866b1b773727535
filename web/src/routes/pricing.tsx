import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { countriesQuery } from '../features/accounts/api';
import { RouteError } from '../features/accounts/session';
import { periodOf } from '../features/subscription/api';
import { PricingPage } from '../features/subscription/PricingPage';

const search = z.object({
  country: z.string().optional().catch(undefined),
  period: z.string().optional().catch(undefined),
});

export const Route = createFileRoute('/pricing')({
  validateSearch: search,
  loader: ({ context }) => context.queryClient.ensureQueryData(countriesQuery()),
  errorComponent: RouteError,
  component: function PricingRoute() {
    const { country, period } = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <PricingPage
        country={country ?? 'AR'}
        period={periodOf(period)}
        onChange={(next) => navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })}
      />
    );
  },
});
