import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { createFileRoute, Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';

export const Route = createFileRoute('/')({ component: Landing });

/** Kratos' browser login flow, reached on the same origin through the /.ory proxy. */
const SIGN_IN_URL = '/.ory/kratos/public/self-service/login/browser';

function Feature({ icon, title, body }: { icon: ReactNode; title: ReactNode; body: ReactNode }) {
  return (
    <Paper withBorder radius="lg" p="lg">
      <ThemeIcon variant="light" size="lg" radius="md" mb="sm" aria-hidden>
        {icon}
      </ThemeIcon>
      <Title order={3} size="h5" mb={4}>
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {body}
      </Text>
    </Paper>
  );
}

const icon = (path: string) => (
  <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
    <path d={path} />
  </svg>
);

function Landing() {
  return (
    <Stack gap="xl">
      <Paper radius="lg" p={{ base: 'lg', sm: 48 }} bg="brand.8" c="white">
        <Stack gap="md" maw={640}>
          <Badge variant="white" color="brand" w="fit-content">
            <FormattedMessage id="landing.eyebrow" defaultMessage="Para organizaciones sin fines de lucro" />
          </Badge>
          <Title order={1} fz={{ base: 28, sm: 40 }} lh={1.15}>
            <FormattedMessage id="landing.title" defaultMessage="Donaciones mensuales que sostienen tu causa" />
          </Title>
          <Text size="lg" c="brand.0">
            <FormattedMessage
              id="landing.lead"
              defaultMessage="Formularios de donación rápidos, cobro recurrente durante años y herramientas para tu equipo y tus agencias, en toda América Latina."
            />
          </Text>
          <Group gap="sm" mt="xs">
            <Button component={Link} to="/signup" size="md" variant="white" color="brand.8">
              <FormattedMessage id="landing.signUp" defaultMessage="Registrar mi organización" />
            </Button>
            <Button component="a" href={SIGN_IN_URL} size="md" variant="outline" color="white">
              <FormattedMessage id="landing.signIn" defaultMessage="Iniciar sesión" />
            </Button>
          </Group>
        </Stack>
      </Paper>

      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <Feature
          icon={icon('M13 2 3 14h9l-1 8 10-12h-9l1-8z')}
          title={<FormattedMessage id="landing.feature.forms.title" defaultMessage="Formularios rápidos" />}
          body={<FormattedMessage id="landing.feature.forms.body" defaultMessage="Donación única o mensual con tarjeta, en pocos pasos y desde cualquier teléfono." />}
        />
        <Feature
          icon={icon('M21 12a9 9 0 1 1-3-6.7L21 8M21 3v5h-5')}
          title={<FormattedMessage id="landing.feature.recurring.title" defaultMessage="Cobro recurrente" />}
          body={<FormattedMessage id="landing.feature.recurring.body" defaultMessage="Cobramos cada mes, reintentamos los cargos rechazados y te avisamos cuando algo se pausa." />}
        />
        <Feature
          icon={icon('M17 21v-2a4 4 0 0 0-4-4H5a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8M23 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8')}
          title={<FormattedMessage id="landing.feature.teams.title" defaultMessage="Equipos y agencias" />}
          body={<FormattedMessage id="landing.feature.teams.body" defaultMessage="Permisos precisos para tu equipo y para las agencias que captan donantes por ti." />}
        />
      </SimpleGrid>
    </Stack>
  );
}
