import { Flex, Group, Paper, Text, ThemeIcon } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import type { OnboardingSteps, StepState } from './steps';

const labels = {
  verification: <FormattedMessage id="onboarding.step.verification" defaultMessage="Verificación" />,
  gateway: <FormattedMessage id="onboarding.step.gateway" defaultMessage="Pasarela de pago" />,
  documents: <FormattedMessage id="onboarding.step.documents" defaultMessage="Documentos" />,
};

const check = (
  <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" aria-hidden>
    <path d="M20 6 9 17l-5-5" />
  </svg>
);

/** The onboarding step bar: completed steps get a tick, the active one is highlighted. */
export function StepBar({ steps }: { steps: OnboardingSteps }) {
  const intl = useIntl();
  const stateText: Record<StepState, string> = {
    completed: intl.formatMessage({ id: 'onboarding.step.completed', defaultMessage: 'completado' }),
    active: intl.formatMessage({ id: 'onboarding.step.active', defaultMessage: 'paso actual' }),
    inactive: intl.formatMessage({ id: 'onboarding.step.inactive', defaultMessage: 'pendiente' }),
  };
  const keys = ['verification', 'gateway', 'documents'] as const;
  return (
    <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'md' }} component="nav" aria-label={intl.formatMessage({ id: 'onboarding.step.label', defaultMessage: 'Pasos para activar tu cuenta' })}>
      <Group component="ol" gap={0} wrap="nowrap" justify="space-between" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {keys.map((key, i) => {
          const state = steps[key];
          return (
            <Flex
              component="li"
              key={key}
              gap={{ base: 4, sm: 8 }}
              direction={{ base: 'column', sm: 'row' }}
              align="center"
              style={{ flex: 1, minWidth: 0 }}
              data-step={key}
              data-state={state}
              aria-current={state === 'active' ? 'step' : undefined}
            >
              <ThemeIcon
                radius="xl"
                size={28}
                variant={state === 'inactive' ? 'light' : 'filled'}
                color={state === 'inactive' ? 'gray' : state === 'completed' ? 'green' : 'brand'}
                aria-hidden
              >
                {state === 'completed' ? check : <Text size="xs" fw={700}>{i + 1}</Text>}
              </ThemeIcon>
              <Text fz={{ base: 'xs', sm: 'sm' }} ta="center" fw={state === 'active' ? 700 : 500} c={state === 'inactive' ? 'dimmed' : undefined}>
                {labels[key]}
                <span className="sr-only" style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
                  {` (${stateText[state]})`}
                </span>
              </Text>
            </Flex>
          );
        })}
      </Group>
    </Paper>
  );
}
