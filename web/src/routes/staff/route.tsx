import { createFileRoute } from '@tanstack/react-router';
import { StaffRouteError } from '../../features/staff/SecondFactorRequired';

/**
 * The staff console. Staff have no organisation, so there is no current user to load: each page's
 * loader asks the staff API, and a refusal (signed out, or no second factor yet) lands here once.
 */
export const Route = createFileRoute('/staff')({ errorComponent: StaffRouteError });
