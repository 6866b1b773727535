import { createFileRoute } from '@tanstack/react-router';
import { staffOrganizationQuery } from '../../../features/staff/api';
import { StaffOrganizationPage } from '../../../features/staff/StaffOrganizationPage';

export const Route = createFileRoute('/staff/organizations/$id')({
  loader: ({ context, params }) => context.queryClient.ensureQueryData(staffOrganizationQuery(params.id)),
  component: function StaffOrganizationRoute() {
    const { id } = Route.useParams();
    return <StaffOrganizationPage key={id} id={id} />;
  },
});
