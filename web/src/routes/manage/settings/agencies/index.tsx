import { createFileRoute } from '@tanstack/react-router';
import { agenciesQuery } from '../../../../features/agencies/api';
import { AgenciesPage } from '../../../../features/agencies/AgenciesPage';

export const Route = createFileRoute('/manage/settings/agencies/')({
  loader: ({ context }) => context.queryClient.ensureQueryData(agenciesQuery()),
  component: function AgenciesRoute() {
    const { me } = Route.useRouteContext();
    return <AgenciesPage me={me} />;
  },
});
