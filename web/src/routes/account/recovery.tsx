import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { RecoveryPage } from '../../features/accounts/AuthPages';

export const Route = createFileRoute('/account/recovery')({
  validateSearch: z.object({ flow: z.string().optional().catch(undefined) }),
  component: function RecoveryRoute() {
    const { flow } = Route.useSearch();
    return <RecoveryPage key={flow} flowId={flow} />;
  },
});
