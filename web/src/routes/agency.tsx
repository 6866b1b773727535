import { createFileRoute, redirect } from '@tanstack/react-router';
import { loginDetour, RouteError } from '../features/accounts/session';
import { acquisitionsQuery, agencyMeQuery } from '../features/agency/api';
import { WorkArea } from '../features/agency/WorkArea';

/** The agencies' work area: its own API (/agency/api), the same sign-in as the manage area. */
export const Route = createFileRoute('/agency')({
  beforeLoad: async ({ context, location }) => {
    try {
      await context.queryClient.ensureQueryData(agencyMeQuery());
    } catch (error) {
      const href = loginDetour(error, new URL(location.href, window.location.origin).href);
      if (href) throw redirect({ href, reloadDocument: true });
      throw error;
    }
  },
  loader: ({ context }) => context.queryClient.ensureQueryData(acquisitionsQuery()),
  errorComponent: RouteError,
  component: WorkArea,
});
