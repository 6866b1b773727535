import { createFileRoute, redirect } from '@tanstack/react-router';

/** The manage area starts on the dashboard. */
export const Route = createFileRoute('/manage/')({
  beforeLoad: () => {
    throw redirect({ to: '/manage/dashboard', replace: true });
  },
});
