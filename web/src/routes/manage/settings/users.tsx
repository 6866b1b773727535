import { createFileRoute } from '@tanstack/react-router';
import { usersQuery } from '../../../features/users/api';
import { UsersPage } from '../../../features/users/UsersPage';

export const Route = createFileRoute('/manage/settings/users')({
  loader: ({ context }) => context.queryClient.ensureQueryData(usersQuery()),
  component: function UsersRoute() {
    const { me } = Route.useRouteContext();
    return <UsersPage me={me} />;
  },
});
