import { Alert, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ApiError } from '../../api/client';
import { CAMPAIGN_TYPES, createCampaign, type CampaignType } from './api';
import { typeDescription, typeName } from './labels';
import { PageHeader } from '../../components/PageHeader';

const ICONS: Record<CampaignType, string> = {
  crowdfund: 'M12 2v20M5 9l7-7 7 7',
  custom: 'M4 6h16M4 12h10M4 18h7',
  fundraise: 'M12 21s-7-4.5-9.5-9A5.5 5.5 0 0 1 12 6a5.5 5.5 0 0 1 9.5 6C19 16.5 12 21 12 21z',
  promoted: 'M3 11l18-8-8 18-2-8z',
  tickets: 'M3 8h18v3a2 2 0 0 0 0 4v3H3v-3a2 2 0 0 0 0-4z',
};

export function ChooseTypePage() {
  const intl = useIntl();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<CampaignType | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function choose(type: CampaignType) {
    setBusy(type);
    setError(null);
    try {
      const c = await createCampaign({ type, title: typeName(intl, type), allow_one_time: true });
      await navigate({ to: '/manage/campaigns/$uuid', params: { uuid: c.uuid } });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      setBusy(null);
    }
  }
  return (
    <Stack gap="lg">
      <PageHeader
        title={<FormattedMessage id="campaigns.choose.title" defaultMessage="¿Qué tipo de campaña quieres crear?" />}
        lead={<FormattedMessage id="campaigns.choose.lead" defaultMessage="Podrás cambiar todos los detalles después." />}
      />
      {error && <Alert color="red" role="alert">{error}</Alert>}
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
        {CAMPAIGN_TYPES.map((t) => (
          <UnstyledButton key={t} onClick={() => choose(t)} disabled={busy !== null} data-type={t} aria-busy={busy === t}>
            <Paper withBorder radius="lg" p="lg" h="100%" style={{ opacity: busy && busy !== t ? 0.5 : 1 }}>
              <ThemeIcon size="xl" radius="md" variant="light" mb="sm" aria-hidden>
                <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round"><path d={ICONS[t]} /></svg>
              </ThemeIcon>
              <Title order={2} size="h4" mb={4}>{typeName(intl, t)}</Title>
              <Text size="sm" c="dimmed">{typeDescription(intl, t)}</Text>
            </Paper>
          </UnstyledButton>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
