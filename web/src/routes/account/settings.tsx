import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { SettingsPage } from '../../features/accounts/AuthPages';

export const Route = createFileRoute('/account/settings')({
  validateSearch: z.object({ flow: z.string().optional().catch(undefined) }),
  component: function SettingsRoute() {
    const { flow } = Route.useSearch();
    return <SettingsPage key={flow} flowId={flow} />;
  },
});
