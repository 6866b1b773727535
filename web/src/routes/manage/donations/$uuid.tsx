import { createFileRoute } from '@tanstack/react-router';
import { donationQuery, reasonsQuery } from '../../../features/donations/api';
import { DonationDetailPage } from '../../../features/donations/DonationDetailPage';

export const Route = createFileRoute('/manage/donations/$uuid')({
  loader: ({ context: { queryClient, locale }, params }) =>
    Promise.all([queryClient.ensureQueryData(donationQuery(params.uuid)), queryClient.ensureQueryData(reasonsQuery(locale))]),
  component: function DonationRoute() {
    const { me } = Route.useRouteContext();
    const { uuid } = Route.useParams();
    return <DonationDetailPage me={me} uuid={uuid} />;
  },
});
