import { createFileRoute } from '@tanstack/react-router';
import { organizationQuery } from '../../../features/documents/api';
import { DocumentsPage } from '../../../features/documents/DocumentsPage';

/** The organisation's documents after onboarding: the same cards, without the onboarding's step bar. */
export const Route = createFileRoute('/manage/settings/documents')({
  loader: ({ context }) => context.queryClient.ensureQueryData(organizationQuery()),
  component: () => <DocumentsPage onboarding={false} />,
});
