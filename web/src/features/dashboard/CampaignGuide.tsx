import { ActionIcon, Box, Button as MantineButton, Group, Stack } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { GenericModal } from '../../components/GenericModal';
import { Button } from '../../components/variants';
import { GuideText } from '../onboarding/GuideModal';

const STEPS: { title: ReactNode; body: ReactNode; icon: string }[] = [
  {
    title: <FormattedMessage id="campaignGuide.1.title" defaultMessage="Crea tu primera campaña" />,
    body: <FormattedMessage id="campaignGuide.1.body" defaultMessage="Una campaña es el formulario donde tus donantes aportan. Elige un tipo, escribe por qué donar y publícala en minutos." />,
    icon: 'M12 5v14M5 12h14',
  },
  {
    title: <FormattedMessage id="campaignGuide.2.title" defaultMessage="Recaudación mensual" />,
    body: <FormattedMessage id="campaignGuide.2.body" defaultMessage="Con una campaña de recaudación sumas donantes mensuales y también aportes por única vez: ingresos previsibles para tu organización." />,
    icon: 'M3 17l6-6 4 4 8-8M14 7h7v7',
  },
  {
    title: <FormattedMessage id="campaignGuide.3.title" defaultMessage="Crowdfunding" />,
    body: <FormattedMessage id="campaignGuide.3.body" defaultMessage="¿Tienes una meta concreta? Un crowdfunding muestra el objetivo y el avance para que más personas se sumen." />,
    icon: 'M12 2l3 7h7l-5.5 4.5 2 7L12 16l-6.5 4.5 2-7L2 9h7z',
  },
  {
    title: <FormattedMessage id="campaignGuide.4.title" defaultMessage="Entradas para eventos" />,
    body: <FormattedMessage id="campaignGuide.4.body" defaultMessage="Vende entradas para cenas, carreras o festivales solidarios, con cupos por tipo de entrada." />,
    icon: 'M3 8a2 2 0 0 0 0 4v4h18v-4a2 2 0 0 0 0-4V4H3zM13 4v12',
  },
];

/** The 4-step campaign guide for an organisation without campaigns; any way out saves step 1. */
export function CampaignGuide({ opened, onDismiss }: { opened: boolean; onDismiss: () => void }) {
  const intl = useIntl();
  const [step, setStep] = useState(0);
  const s = STEPS[step]!;
  const last = step === STEPS.length - 1;
  return (
    <GenericModal opened={opened} onClose={onDismiss} title={s.title} size="lg">
      <Stack gap="lg" data-guide="create_campaign" data-step={step + 1}>
        <GuideText icon={s.icon} size={56}>
          {s.body}
        </GuideText>
        <Group justify="space-between" wrap="nowrap">
          <ActionIcon variant="subtle" size="lg" disabled={step === 0} onClick={() => setStep(step - 1)} aria-label={intl.formatMessage({ id: 'campaignGuide.prev', defaultMessage: 'Paso anterior' })}>
            <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden><path d="M15 18l-6-6 6-6" /></svg>
          </ActionIcon>
          <Group gap={8} role="tablist" aria-label={intl.formatMessage({ id: 'campaignGuide.steps', defaultMessage: 'Pasos de la guía' })}>
            {STEPS.map((_, i) => (
              <Box key={i} component="button" type="button" role="tab" aria-selected={i === step}
                aria-label={intl.formatMessage({ id: 'campaignGuide.stepN', defaultMessage: 'Paso {n} de {total}' }, { n: i + 1, total: STEPS.length })}
                onClick={() => setStep(i)}
                style={{ width: i === step ? 22 : 10, height: 10, borderRadius: 5, border: 0, padding: 0, cursor: 'pointer', transition: 'width 150ms', background: i === step ? 'var(--mantine-color-brand-6)' : 'var(--mantine-color-gray-3)' }} />
            ))}
          </Group>
          <ActionIcon variant="subtle" size="lg" disabled={last} onClick={() => setStep(step + 1)} aria-label={intl.formatMessage({ id: 'campaignGuide.next', defaultMessage: 'Paso siguiente' })}>
            <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden><path d="M9 18l6-6-6-6" /></svg>
          </ActionIcon>
        </Group>
        <Group justify="flex-end" gap="sm" wrap="wrap">
          {last ? (
            <Button variant="ghost" onClick={onDismiss}><FormattedMessage id="campaignGuide.toDashboard" defaultMessage="Ir al panel" /></Button>
          ) : (
            <Button variant="ghost" onClick={onDismiss}><FormattedMessage id="campaignGuide.later" defaultMessage="Más tarde" /></Button>
          )}
          <span onClickCapture={onDismiss}>
            <MantineButton component={Link} to="/manage/campaigns/choose_type" color="brand"><FormattedMessage id="campaignGuide.create" defaultMessage="Crear campaña" /></MantineButton>
          </span>
        </Group>
      </Stack>
    </GenericModal>
  );
}
