import { Center, Loader, Paper, Text } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { redirect, type ErrorComponentProps, type ParsedLocation } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { ApiError } from '../../api/client';
import { currentUserQuery, type CurrentUser } from './api';
import { loginAndReturn, secondFactorLogin } from './kratos';

/**
 * Where an API failure sends the browser to sign in and come back to returnTo: the login, or the
 * authenticator app's code for a session that owes it (Kratos's login with aal=aal2). Undefined for
 * any other failure.
 */
export function loginDetour(error: unknown, returnTo = window.location.href): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.code === 'session.second_factor_required') return secondFactorLogin(returnTo);
  if (error.status === 401) return loginAndReturn(returnTo);
  return undefined;
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

/** A route's errorComponent: a session that ended mid-visit goes to the login; any other failure shows in place. */
export function RouteError({ error }: Pick<ErrorComponentProps, 'error'>) {
  const detour = loginDetour(error);
  useEffect(() => {
    if (detour) window.location.assign(detour);
  }, [detour]);
  return detour ? <PageLoader /> : <LoadError error={error} />;
}

const VERIFICATIONS = '/account/verifications';

/**
 * beforeLoad of the signed-in areas: loads the current user into the query cache and the route
 * context. Signed-out visitors go to the login flow (and come back here), and a user whose e-mail is
 * not verified yet to the verification step (the API answers nothing else).
 */
export async function ensureSignedIn(queryClient: QueryClient, location: ParsedLocation): Promise<{ me: CurrentUser }> {
  let me: CurrentUser;
  try {
    me = await queryClient.ensureQueryData(currentUserQuery());
  } catch (error) {
    const href = loginDetour(error, new URL(location.href, window.location.origin).href);
    if (href) throw redirect({ href, reloadDocument: true });
    throw error;
  }
  if (!me.verifications.email_verified && location.pathname !== VERIFICATIONS) throw redirect({ to: VERIFICATIONS, replace: true });
  return { me };
}
