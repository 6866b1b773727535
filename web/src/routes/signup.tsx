import { createFileRoute } from '@tanstack/react-router';
import { countriesQuery } from '../features/accounts/api';
import { RouteError } from '../features/accounts/session';
import { SignupPage } from '../features/accounts/SignupPage';

export const Route = createFileRoute('/signup')({
  loader: ({ context }) => context.queryClient.ensureQueryData(countriesQuery()),
  errorComponent: RouteError,
  component: SignupPage,
});
