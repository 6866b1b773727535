import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { TwoFactorPage } from '../../features/accounts/TwoFactorPage';

/** Only a path of this app: the page goes back there once the authenticator app is set up. */
const localPath = z.string().regex(/^\/(?!\/)/);

export const Route = createFileRoute('/account/two_factor')({
  validateSearch: z.object({ return_to: localPath.optional().catch(undefined) }),
  component: function TwoFactorRoute() {
    const { return_to } = Route.useSearch();
    return <TwoFactorPage returnTo={return_to ?? '/staff'} />;
  },
});
