import { createFileRoute } from '@tanstack/react-router';
import { WithUser } from '../../../features/accounts/session';
import { UsersPage } from '../../../features/users/UsersPage';

export const Route = createFileRoute('/manage/settings/users')({
  component: () => <WithUser>{(me) => <UsersPage me={me} />}</WithUser>,
});
