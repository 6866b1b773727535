import { Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { GenericModal } from '../../components/GenericModal';
import { Icon } from '../../components/Icon';
import { Button } from '../../components/variants';
import { saveTourProgress, tourQuery, type GuideName } from './tours';

const content: Record<GuideName, { title: ReactNode; body: ReactNode; icon: string }> = {
  registration_completed: {
    title: <FormattedMessage id="guide.registration_completed.title" defaultMessage="¡Registro completo!" />,
    body: (
      <FormattedMessage
        id="guide.registration_completed.body"
        defaultMessage="Recibimos todos tus documentos. Nuestro equipo los revisará en menos de 48 horas hábiles y te avisaremos por e-mail. Mientras tanto, puedes preparar tus campañas."
      />
    ),
    icon: 'M20 6 9 17l-5-5',
  },
  upload_documents: {
    title: <FormattedMessage id="guide.upload_documents.title" defaultMessage="Sube los documentos de tu organización" />,
    body: (
      <FormattedMessage
        id="guide.upload_documents.body"
        defaultMessage="Para activar tu cuenta necesitamos verificar estos documentos. Sube cada uno (PDF, imagen o Word, de menos de 50 MB) y, cuando esté completo, pulsa «Listo para verificación»."
      />
    ),
    icon: 'M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8zM14 2v6h6M12 18v-6M9 15l3-3 3 3',
  },
  payment_gateways_config: {
    title: <FormattedMessage id="guide.payment_gateways_config.title" defaultMessage="Elige cómo recibir las donaciones" />,
    body: (
      <FormattedMessage
        id="guide.payment_gateways_config.body"
        defaultMessage="Conecta una pasarela de pago para cobrar las donaciones con tarjeta. Si aún no la tienes, puedes elegirla más tarde desde la configuración."
      />
    ),
    icon: 'M2 7h20v12H2zM2 11h20M6 15h4',
  },
};

/** A guide's text beside its icon in a light circle (the icon half the circle's size): the onboarding guides, the campaign guide's steps. */
export function GuideText({ icon, size, children }: { icon: string; size: number; children: ReactNode }) {
  return (
    <Group wrap="nowrap" align="flex-start" gap="md">
      <ThemeIcon size={size} radius="xl" variant="light" aria-hidden style={{ flexShrink: 0 }}>
        <Icon d={icon} size={size / 2} />
      </ThemeIcon>
      <Text>{children}</Text>
    </Group>
  );
}

/** A guide shows while its stored step is 0; dismissing it saves step 1 (spec §4). */
export function GuideModal({ name, enabled = true, action }: { name: GuideName; enabled?: boolean; action?: ReactNode }) {
  const queryClient = useQueryClient();
  const { data: step } = useQuery({ ...tourQuery(name), enabled });
  const opened = enabled && step === 0;
  const dismiss = () => {
    queryClient.setQueryData(tourQuery(name).queryKey, 1);
    void saveTourProgress(name, 1);
  };
  const c = content[name];
  return (
    <GenericModal opened={opened} onClose={dismiss} title={c.title}>
      <Stack gap="lg" data-guide={name}>
        <GuideText icon={c.icon} size={48}>
          {c.body}
        </GuideText>
        <Group justify="flex-end" gap="sm">
          {action ? (
            <span onClickCapture={dismiss}>{action}</span>
          ) : (
            <Button onClick={dismiss}>
              <FormattedMessage id="guide.understood" defaultMessage="Entendido" />
            </Button>
          )}
        </Group>
      </Stack>
    </GenericModal>
  );
}
