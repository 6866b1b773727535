import { createFileRoute } from '@tanstack/react-router';
import { WithUser } from '../../features/accounts/session';
import { DashboardPage } from '../../features/dashboard/DashboardPage';
import { dashboardSearch } from '../../features/dashboard/search';

export const Route = createFileRoute('/manage/dashboard')({
  validateSearch: dashboardSearch,
  component: function DashboardRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return <WithUser>{(me) => <DashboardPage me={me} search={search} onSearch={(next) => navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })} />}</WithUser>;
  },
});
