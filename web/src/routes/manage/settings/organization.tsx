import { createFileRoute } from '@tanstack/react-router';
import { organizationQuery } from '../../../features/documents/api';
import { OrganizationPage } from '../../../features/organizations/OrganizationPage';

export const Route = createFileRoute('/manage/settings/organization')({
  loader: ({ context }) => context.queryClient.ensureQueryData(organizationQuery()),
  component: OrganizationPage,
});
