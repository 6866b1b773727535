import { createFileRoute } from '@tanstack/react-router';
import { waitingQuery } from '../../features/staff/api';
import { StaffListPage } from '../../features/staff/StaffListPage';

export const Route = createFileRoute('/staff/')({
  loader: ({ context }) => context.queryClient.ensureQueryData(waitingQuery()),
  component: StaffListPage,
});
