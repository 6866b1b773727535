import { createFileRoute } from '@tanstack/react-router';
import { WithUser } from '../../../features/accounts/session';
import { DonationsPage } from '../../../features/donations/DonationsPage';
import { donationsSearch } from '../../../features/donations/search';

export const Route = createFileRoute('/manage/donations/')({
  validateSearch: donationsSearch,
  component: function DonationsRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return <WithUser>{(me) => <DonationsPage me={me} search={search} onSearch={(next) => navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })} />}</WithUser>;
  },
});
