import { createFileRoute } from '@tanstack/react-router';
import { agencyQuery, authorisableCampaignsQuery } from '../../../../features/agencies/api';
import { AgencyPage } from '../../../../features/agencies/AgencyPage';

export const Route = createFileRoute('/manage/settings/agencies/$token')({
  loader: ({ context, params }) =>
    Promise.all([context.queryClient.ensureQueryData(agencyQuery(params.token)), context.queryClient.ensureQueryData(authorisableCampaignsQuery())]),
  component: function AgencyRoute() {
    const { token } = Route.useParams();
    return <AgencyPage token={token} />;
  },
});
