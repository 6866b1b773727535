import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { FormattedMessage } from 'react-intl';
import { ApiError } from '../../api/client';
import { RouteError } from '../accounts/session';

/** The staff API's answer to a session signed in with the password alone. */
const needsStaffSecondFactor = (error: unknown) => error instanceof ApiError && error.code === 'staff.second_factor_required';

/** The console's errorComponent: a password-only session is asked to set up the app; anything else as on any page. */
export function StaffRouteError({ error }: ErrorComponentProps) {
  return needsStaffSecondFactor(error) ? <SecondFactorRequired /> : <RouteError error={error} />;
}

/** Explains why the console is closed and leads to setting up the authenticator app. */
export function SecondFactorRequired() {
  const back = window.location.pathname + window.location.search;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} maw={560} mx="auto" component="section" aria-labelledby="staff-2fa">
      <Stack gap="md" align="flex-start">
        <ThemeIcon size={48} radius="md" variant="light" aria-hidden>
          <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <rect x="5" y="11" width="14" height="10" rx="2" />
            <path d="M8 11V7a4 4 0 0 1 8 0v4" />
          </svg>
        </ThemeIcon>
        <Title order={1} size="h2" id="staff-2fa">
          <FormattedMessage id="staff.twoFactor.title" defaultMessage="Activa la verificación en dos pasos" />
        </Title>
        <Text>
          <FormattedMessage
            id="staff.twoFactor.body"
            defaultMessage="El panel de staff muestra documentos de todas las organizaciones, así que pide, además de tu contraseña, un código de una app de autenticación. Configúrala una vez; desde entonces te lo pediremos al entrar."
          />
        </Text>
        <Button component="a" color="brand" href={`/account/two_factor?return_to=${encodeURIComponent(back)}`}>
          <FormattedMessage id="staff.twoFactor.setUp" defaultMessage="Configurar mi app de autenticación" />
        </Button>
      </Stack>
    </Paper>
  );
}
