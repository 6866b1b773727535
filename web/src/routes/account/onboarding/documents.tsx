import { createFileRoute } from '@tanstack/react-router';
import { organizationQuery } from '../../../features/documents/api';
import { DocumentsPage } from '../../../features/documents/DocumentsPage';

export const Route = createFileRoute('/account/onboarding/documents')({
  loader: ({ context }) => context.queryClient.ensureQueryData(organizationQuery()),
  component: () => <DocumentsPage onboarding />,
});
