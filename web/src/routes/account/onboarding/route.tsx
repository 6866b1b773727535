import { createFileRoute } from '@tanstack/react-router';
import { ensureSignedIn, RouteError } from '../../../features/accounts/session';

/** The onboarding steps after signup need the signed-in user, as the manage area does. */
export const Route = createFileRoute('/account/onboarding')({
  beforeLoad: ({ context, location }) => ensureSignedIn(context.queryClient, location),
  errorComponent: RouteError,
});
