import { createFileRoute } from '@tanstack/react-router';
import { campaignsQuery } from '../../../features/campaigns/api';
import { donationsQuery } from '../../../features/donations/api';
import { DonationsPage } from '../../../features/donations/DonationsPage';
import { donationsSearch } from '../../../features/donations/search';

export const Route = createFileRoute('/manage/donations/')({
  validateSearch: donationsSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) =>
    Promise.all([queryClient.ensureQueryData(donationsQuery(deps)), queryClient.ensureQueryData(campaignsQuery())]),
  component: function DonationsRoute() {
    const { me } = Route.useRouteContext();
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return <DonationsPage me={me} search={search} onSearch={(next) => navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })} />;
  },
});
