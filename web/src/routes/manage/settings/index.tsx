import { createFileRoute, redirect } from '@tanstack/react-router';

/** The settings start on the organisation's page. */
export const Route = createFileRoute('/manage/settings/')({
  beforeLoad: () => {
    throw redirect({ to: '/manage/settings/organization', replace: true });
  },
});
