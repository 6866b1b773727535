import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { LoginPage } from '../../features/accounts/AuthPages';

export const Route = createFileRoute('/account/login')({
  validateSearch: z.object({ flow: z.string().optional().catch(undefined) }),
  component: function LoginRoute() {
    const { flow } = Route.useSearch();
    return <LoginPage key={flow} flowId={flow} />;
  },
});
