import { createFileRoute } from '@tanstack/react-router';
import { ensureSignedIn, RouteError } from '../../features/accounts/session';
import { organizationQuery } from '../../features/documents/api';
import { ManageShell } from '../../features/shell/ManageShell';
import { NotFound } from '../../features/shell/NotFound';

/** The manage area: every page below has the signed-in user in its route context, and sits in the area's shell. */
export const Route = createFileRoute('/manage')({
  staticData: { ownShell: true },
  beforeLoad: ({ context, location }) => ensureSignedIn(context.queryClient, location),
  // The shell shows the organisation's name and account state.
  loader: ({ context }) => context.queryClient.ensureQueryData(organizationQuery()),
  component: ManageShell,
  errorComponent: RouteError,
  // An unknown path below shows the not-found page inside the shell: the router shows the one of the deepest route
  // that has its own, which without this would be the root's, outside every shell.
  notFoundComponent: NotFound,
});
