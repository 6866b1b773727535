import { Badge, Box, Button, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Icon } from '../../components/Icon';
import { formatMoney } from '../../donate/lib/money';

/** Kratos' browser login flow, reached on the same origin through the /.ory proxy. */
const SIGN_IN_URL = '/.ory/kratos/public/self-service/login/browser';

/** Where Aporta works, each with the currency its donors give in (spec §1). */
const COUNTRIES = [
  { code: 'AR', currency: 'ARS' },
  { code: 'BR', currency: 'BRL' },
  { code: 'CL', currency: 'CLP' },
  { code: 'CO', currency: 'COP' },
  { code: 'MX', currency: 'MXN' },
  { code: 'PE', currency: 'PEN' },
  { code: 'UY', currency: 'UYU' },
] as const;

const ICONS = {
  forms: 'M13 2 3 14h9l-1 8 10-12h-9l1-8z',
  recurring: 'M21 12a9 9 0 1 1-3-6.7L21 8M21 3v5h-5',
  teams: 'M17 21v-2a4 4 0 0 0-4-4H5a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8M23 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8',
  dashboard: 'M3 3v18h18M7 15l4-4 3 3 5-6',
  gateway: 'M2 5h20v14H2zM2 10h20M6 15h4',
  security: 'M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10zM9 12l2 2 4-4',
};

function Feature({ icon, title, body }: { icon: string; title: ReactNode; body: ReactNode }) {
  return (
    <Paper withBorder radius="lg" p="lg">
      <ThemeIcon variant="light" size="lg" radius="md" mb="sm">
        <Icon d={icon} />
      </ThemeIcon>
      <Title order={3} size="h5" mb={4}>
        {title}
      </Title>
      <Text size="sm" c="gray.7">
        {body}
      </Text>
    </Paper>
  );
}

function Section({ id, title, lead, children }: { id: string; title: ReactNode; lead?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="md" component="section" aria-labelledby={id}>
      <div>
        <Title order={2} size="h3" id={id}>
          {title}
        </Title>
        {lead && (
          <Text c="gray.7" mt={4} maw={720}>
            {lead}
          </Text>
        )}
      </div>
      {children}
    </Stack>
  );
}

function Actions() {
  return (
    <Group gap="sm">
      <Button component={Link} to="/signup" size="md" variant="white" color="brand.8">
        <FormattedMessage id="landing.signUp" defaultMessage="Registrar mi organización" />
      </Button>
      <Button component="a" href={SIGN_IN_URL} size="md" variant="outline" color="white">
        <FormattedMessage id="landing.signIn" defaultMessage="Iniciar sesión" />
      </Button>
    </Group>
  );
}

/** A donation form as a donor sees it: an illustration of the product, not a working form. */
function FormPreview() {
  // Written as the donor's currency is (donor spec §9), whatever the reader's language.
  const amounts = [2500, 5000, 10000].map((n) => formatMoney(n * 100, 'ARS').replace(/,00$/, ''));
  return (
    <Paper radius="lg" p="lg" shadow="xl" c="dark" w={300} aria-hidden visibleFrom="md" style={{ flexShrink: 0 }}>
      <Text fw={700} mb={4}>
        <FormattedMessage id="landing.preview.title" defaultMessage="Agua para todos" />
      </Text>
      <Text size="xs" c="gray.7" mb="md">
        <FormattedMessage id="landing.preview.frequency" defaultMessage="Donación mensual" />
      </Text>
      <SimpleGrid cols={3} spacing={6} mb="md">
        {amounts.map((a, i) => (
          <Paper key={a} withBorder radius="md" py={8} ta="center" bg={i === 1 ? 'brand.7' : undefined} c={i === 1 ? 'white' : undefined}>
            <Text size="xs" fw={700}>
              {a}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <Paper radius="md" py={10} ta="center" bg="brand.7" c="white">
        <Text size="sm" fw={700}>
          <FormattedMessage id="landing.preview.donate" defaultMessage="Donar {amount} por mes" values={{ amount: amounts[1] }} />
        </Text>
      </Paper>
    </Paper>
  );
}

/** The public home page: what Aporta does, for whom, where, and the way in. */
export function LandingPage() {
  const intl = useIntl();
  const regionName = (code: string) => intl.formatDisplayName(code, { type: 'region' }) ?? code;
  return (
    <Stack gap={56}>
      <Paper radius="lg" p={{ base: 'lg', sm: 48 }} bg="brand.8" c="white">
        <Group justify="space-between" align="center" wrap="nowrap" gap="xl">
          <Stack gap="md" maw={640}>
            <Badge variant="white" color="brand.8" w="fit-content">
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
            <Box mt="xs">
              <Actions />
            </Box>
          </Stack>
          <FormPreview />
        </Group>
      </Paper>

      <Section id="landing-what" title={<FormattedMessage id="landing.what.title" defaultMessage="Todo lo que necesitas para recaudar" />}
        lead={<FormattedMessage id="landing.what.lead" defaultMessage="Desde el primer aporte hasta el donante que te acompaña durante años." />}>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
          <Feature
            icon={ICONS.forms}
            title={<FormattedMessage id="landing.feature.forms.title" defaultMessage="Formularios rápidos" />}
            body={<FormattedMessage id="landing.feature.forms.body" defaultMessage="Donación única o mensual con tarjeta, en pocos pasos y desde cualquier teléfono." />}
          />
          <Feature
            icon={ICONS.recurring}
            title={<FormattedMessage id="landing.feature.recurring.title" defaultMessage="Cobro recurrente" />}
            body={<FormattedMessage id="landing.feature.recurring.body" defaultMessage="Cobramos cada mes, reintentamos los cargos rechazados y te avisamos cuando algo se pausa." />}
          />
          <Feature
            icon={ICONS.dashboard}
            title={<FormattedMessage id="landing.feature.dashboard.title" defaultMessage="Panel y reportes" />}
            body={<FormattedMessage id="landing.feature.dashboard.body" defaultMessage="Lo recaudado, las nuevas donaciones, las pausas y sus motivos, por campaña y por período, listo para exportar." />}
          />
          <Feature
            icon={ICONS.gateway}
            title={<FormattedMessage id="landing.feature.gateway.title" defaultMessage="Tu propia cuenta de cobro" />}
            body={<FormattedMessage id="landing.feature.gateway.body" defaultMessage="Conectas tu cuenta de Mercado Pago en un paso: el dinero llega directo a tu organización." />}
          />
          <Feature
            icon={ICONS.teams}
            title={<FormattedMessage id="landing.feature.teams.title" defaultMessage="Equipos y agencias" />}
            body={<FormattedMessage id="landing.feature.teams.body" defaultMessage="Permisos precisos para tu equipo y para las agencias que captan donantes por ti." />}
          />
          <Feature
            icon={ICONS.security}
            title={<FormattedMessage id="landing.feature.security.title" defaultMessage="Datos protegidos" />}
            body={<FormattedMessage id="landing.feature.security.body" defaultMessage="Los datos de las tarjetas van directo a la pasarela: nunca pasan por tus planillas ni por nuestros servidores." />}
          />
        </SimpleGrid>
      </Section>

      <Section id="landing-who" title={<FormattedMessage id="landing.who.title" defaultMessage="Para quién es Aporta" />}>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
          <Feature
            icon={'M19 14c1.5-1.5 3-3.2 3-5.5A5.5 5.5 0 0 0 16.5 3c-1.8 0-3 .5-4.5 2-1.5-1.5-2.7-2-4.5-2A5.5 5.5 0 0 0 2 8.5c0 2.3 1.5 4 3 5.5l7 7z'}
            title={<FormattedMessage id="landing.who.ngo.title" defaultMessage="Fundaciones y ONG" />}
            body={<FormattedMessage id="landing.who.ngo.body" defaultMessage="Que quieren pasar de campañas sueltas a una base de donantes mensuales que sostenga su trabajo." />}
          />
          <Feature
            icon={'M3 11l18-8-8 18-2-8z'}
            title={<FormattedMessage id="landing.who.fundraisers.title" defaultMessage="Equipos de captación" />}
            body={<FormattedMessage id="landing.who.fundraisers.body" defaultMessage="En la calle, por teléfono o en eventos: cada donante queda registrado y cobrado desde el primer día." />}
          />
          <Feature
            icon={'M3 21h18M5 21V7l7-4 7 4v14M9 21v-6h6v6'}
            title={<FormattedMessage id="landing.who.growing.title" defaultMessage="Organizaciones que crecen" />}
            body={<FormattedMessage id="landing.who.growing.body" defaultMessage="Con varias campañas, entradas para eventos y un equipo que crece, sin sumar herramientas ni planillas." />}
          />
        </SimpleGrid>
      </Section>

      <Section id="landing-how" title={<FormattedMessage id="landing.how.title" defaultMessage="Empieza en tres pasos" />}>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {[
            <FormattedMessage key="1" id="landing.how.signUp" defaultMessage="Registra tu organización y verifica tu e-mail y tu celular." />,
            <FormattedMessage key="2" id="landing.how.connect" defaultMessage="Conecta tu pasarela de pago y sube los documentos de la organización." />,
            <FormattedMessage key="3" id="landing.how.publish" defaultMessage="Publica tu campaña y comparte su enlace o su código QR." />,
          ].map((step, i) => (
            <Paper key={i} component="li" withBorder radius="lg" p="lg">
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <ThemeIcon radius="xl" size="lg" color="brand.8" aria-hidden>
                  <Text fw={800} size="sm">
                    {i + 1}
                  </Text>
                </ThemeIcon>
                <Text size="sm">{step}</Text>
              </Group>
            </Paper>
          ))}
        </SimpleGrid>
      </Section>

      <Section id="landing-countries" title={<FormattedMessage id="landing.countries.title" defaultMessage="En siete países de América Latina" />}
        lead={<FormattedMessage id="landing.countries.lead" defaultMessage="Cada organización cobra en la moneda de su país, con los documentos de identidad y los medios de pago de sus donantes." />}>
        <SimpleGrid cols={{ base: 2, xs: 3, sm: 4, md: 7 }} spacing="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {COUNTRIES.map((c) => (
            <Paper key={c.code} component="li" withBorder radius="lg" p="md" ta="center">
              <Text fw={700}>{regionName(c.code)}</Text>
              <Text size="xs" c="gray.7">
                {c.currency}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
      </Section>

      <Paper radius="lg" p={{ base: 'lg', sm: 40 }} bg="brand.8" c="white" component="section" aria-labelledby="landing-start">
        <Stack gap="md" align="flex-start">
          <Title order={2} size="h3" id="landing-start">
            <FormattedMessage id="landing.start.title" defaultMessage="Tu próxima campaña puede estar lista hoy" />
          </Title>
          <Actions />
        </Stack>
      </Paper>
    </Stack>
  );
}
