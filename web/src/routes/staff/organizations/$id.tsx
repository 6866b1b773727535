import { createFileRoute } from '@tanstack/react-router';
import { StaffOrganizationPage } from '../../../features/staff/StaffOrganizationPage';

export const Route = createFileRoute('/staff/organizations/$id')({
  component: function StaffOrganizationRoute() {
    const { id } = Route.useParams();
    return <StaffOrganizationPage key={id} id={id} />;
  },
});
