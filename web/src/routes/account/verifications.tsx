import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { countriesQuery, currentUserQuery } from '../../features/accounts/api';
import { ensureSignedIn, RouteError } from '../../features/accounts/session';
import { VerificationsPage } from '../../features/accounts/VerificationsPage';

export const Route = createFileRoute('/account/verifications')({
  beforeLoad: ({ context, location }) => ensureSignedIn(context.queryClient, location),
  loader: ({ context }) => context.queryClient.ensureQueryData(countriesQuery()),
  errorComponent: RouteError,
  component: function VerificationsRoute() {
    // Read from the cache, not the route context: each verified code updates the user in place.
    const { data: user } = useSuspenseQuery(currentUserQuery());
    return <VerificationsPage user={user} />;
  },
});
