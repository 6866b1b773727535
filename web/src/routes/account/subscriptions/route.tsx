import { createFileRoute } from '@tanstack/react-router';
import { ensureSignedIn, RouteError } from '../../../features/accounts/session';

/** Plan and payment screens need a signed-in user (§6). */
export const Route = createFileRoute('/account/subscriptions')({
  beforeLoad: ({ context, location }) => ensureSignedIn(context.queryClient, location),
  errorComponent: RouteError,
});
