import { createFileRoute } from '@tanstack/react-router';
import { NotFound } from '../../features/shell/NotFound';
import { StaffShell } from '../../features/shell/StaffShell';
import { StaffRouteError } from '../../features/staff/SecondFactorRequired';

/**
 * The staff console, in its own shell. Staff have no organisation, so there is no current user to load: each
 * page's loader asks the staff API, and a refusal (signed out, or no second factor yet) lands here once.
 */
export const Route = createFileRoute('/staff')({
  staticData: { ownShell: true },
  component: StaffShell,
  errorComponent: StaffRouteError,
  // An unknown path below is not found inside the console's shell.
  notFoundComponent: NotFound,
});
