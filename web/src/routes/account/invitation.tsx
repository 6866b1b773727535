import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { InvitationPage } from '../../features/users/InvitationPage';

export const Route = createFileRoute('/account/invitation')({
  validateSearch: z.object({ token: z.string().optional().catch(undefined) }),
  component: function InvitationRoute() {
    const { token } = Route.useSearch();
    return <InvitationPage key={token} token={token ?? ''} />;
  },
});
