import { createFileRoute } from '@tanstack/react-router';
import { WithUser } from '../../features/account/session';
import { VerificationsPage } from '../../features/account/VerificationsPage';

export const Route = createFileRoute('/account/verifications')({
  component: () => <WithUser>{(user) => <VerificationsPage user={user} />}</WithUser>,
});
