import { createFileRoute } from '@tanstack/react-router';
import { WithUser } from '../../features/accounts/session';
import { VerificationsPage } from '../../features/accounts/VerificationsPage';

export const Route = createFileRoute('/account/verifications')({
  component: () => <WithUser>{(user) => <VerificationsPage user={user} />}</WithUser>,
});
