import { createFileRoute } from '@tanstack/react-router';
import { ensureSignedIn, RouteError } from '../../features/accounts/session';

/** The manage area: every page below has the signed-in user in its route context. */
export const Route = createFileRoute('/manage')({
  beforeLoad: ({ context, location }) => ensureSignedIn(context.queryClient, location),
  errorComponent: RouteError,
});
