import { createFileRoute } from '@tanstack/react-router';
import { WithUser } from '../../../features/accounts/session';
import { DonationDetailPage } from '../../../features/donations/DonationDetailPage';

export const Route = createFileRoute('/manage/donations/$uuid')({
  component: function DonationRoute() {
    const { uuid } = Route.useParams();
    return <WithUser>{(me) => <DonationDetailPage me={me} uuid={uuid} />}</WithUser>;
  },
});
