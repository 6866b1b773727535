import { createFileRoute } from '@tanstack/react-router';
import { mepHistoryQuery } from '../../features/staff/api';
import { MepRatePage } from '../../features/staff/MepRatePage';

export const Route = createFileRoute('/staff/mep')({
  loader: ({ context }) => context.queryClient.ensureQueryData(mepHistoryQuery()),
  component: MepRatePage,
});
