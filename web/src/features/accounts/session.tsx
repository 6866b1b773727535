import { Center, Loader, Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useLocation } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { ApiError } from '../../api/client';
import { currentUserQuery, type CurrentUser } from './api';
import { LOGIN_BROWSER, secondFactorLogin } from './kratos';

/** The session owes the authenticator app's code (it has one set up): Kratos's login with aal=aal2 asks for it. */
const needsSecondFactor = (error: unknown) => error instanceof ApiError && error.code === 'session.second_factor_required';

export const needsLogin = (error: unknown) => (error instanceof ApiError && error.status === 401) || needsSecondFactor(error);

/** Sends a signed-out visitor to the login flow, and someone who still owes a second factor to its code screen. */
export function useRedirectOnSignedOut(error: unknown) {
  useEffect(() => {
    if (needsSecondFactor(error)) window.location.assign(secondFactorLogin());
    else if (needsLogin(error)) window.location.assign(LOGIN_BROWSER);
  }, [error]);
}

export function PageLoader() {
  const intl = useIntl();
  return (
    <Center py={64} role="status" aria-label={intl.formatMessage({ id: 'common.loading', defaultMessage: 'Cargando…' })}>
      <Loader />
    </Center>
  );
}

export function LoadError({ error }: { error: unknown }) {
  return (
    <Paper withBorder radius="lg" p="lg">
      <Text role="alert" c="red.8">
        {error instanceof Error ? error.message : String(error)}
      </Text>
    </Paper>
  );
}

const VERIFICATIONS = '/account/verifications';

/**
 * Renders children with the signed-in user; signed-out visitors go to the login flow, and a user
 * whose e-mail is not verified yet to the verification step (the API answers nothing else).
 */
export function WithUser({ children }: { children: (user: CurrentUser) => ReactNode }) {
  const { data, error, isPending } = useQuery(currentUserQuery());
  const { pathname } = useLocation();
  useRedirectOnSignedOut(error);
  if (data && !data.verifications.email_verified && pathname !== VERIFICATIONS) return <Navigate to={VERIFICATIONS} replace />;
  if (data) return <>{children(data)}</>;
  if (isPending || needsLogin(error)) return <PageLoader />;
  return <LoadError error={error} />;
}
