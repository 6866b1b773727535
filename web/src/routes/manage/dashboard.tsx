import { createFileRoute } from '@tanstack/react-router';
import { campaignsQuery } from '../../features/campaigns/api';
import { dashboardQuery } from '../../features/dashboard/api';
import { DashboardPage } from '../../features/dashboard/DashboardPage';
import { dashboardSearch } from '../../features/dashboard/search';
import { organizationQuery } from '../../features/documents/api';
import { reasonsQuery } from '../../features/donations/api';

export const Route = createFileRoute('/manage/dashboard')({
  validateSearch: dashboardSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient, locale }, deps }) =>
    Promise.all([
      queryClient.ensureQueryData(dashboardQuery(deps)),
      queryClient.ensureQueryData(organizationQuery()),
      queryClient.ensureQueryData(campaignsQuery()),
      queryClient.ensureQueryData(reasonsQuery(locale)),
    ]),
  component: function DashboardRoute() {
    const { me } = Route.useRouteContext();
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return <DashboardPage me={me} search={search} onSearch={(next) => navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })} />;
  },
});
