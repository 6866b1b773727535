import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { z } from 'zod';
import { PortalPage } from '../../features/portal/PortalPage';

// The donor portal of the organisation whose campaign form has this slug; ?token= is a magic link's, used once.
export const Route = createFileRoute('/donor/$slug')({
  validateSearch: z.object({ token: z.string().optional().catch(undefined) }),
  component: function DonorPortalRoute() {
    const { slug } = Route.useParams();
    const { token } = Route.useSearch();
    const navigate = Route.useNavigate();
    // The used token leaves the address bar (and the history), so a reload or a shared URL does not carry it.
    const dropToken = useCallback(() => void navigate({ search: (prev) => ({ ...prev, token: undefined }), replace: true }), [navigate]);
    return <PortalPage slug={slug} token={token} onTokenUsed={dropToken} />;
  },
});
