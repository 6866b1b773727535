import { Anchor, Button as MantineButton, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { LoadError, PageLoader, useRedirectOnSignedOut } from '../accounts/session';
import { StepBar } from '../accounts/StepBar';
import { GuideModal } from '../onboarding/GuideModal';
import { organizationQuery, orderedDocuments } from './api';
import { allReadyForReview } from './card';
import { DocumentCard } from './DocumentCard';
import { AccountStateBanner } from './AccountStateBanner';

export function DocumentsPage() {
  const queryClient = useQueryClient();
  const { data: org, error, isPending } = useQuery(organizationQuery());
  useRedirectOnSignedOut(error);
  if (isPending) return <PageLoader />;
  if (!org) return <LoadError error={error} />;
  const docs = orderedDocuments(org);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['organization'] });
  return (
    <Stack gap="lg">
      <StepBar steps={{ verification: 'completed', gateway: 'completed', documents: 'active' }} />
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div>
          <Title order={1} size="h2">
            <FormattedMessage id="documents.title" defaultMessage="Documentos de la organización" />
          </Title>
          <Text c="dimmed" mt={4}>
            <FormattedMessage id="documents.lead" defaultMessage="Sube cada documento y envíalo a verificación. Revisamos en menos de 48 horas hábiles." />
          </Text>
        </div>
        <Anchor href="/manage/dashboard" size="sm" fw={600}>
          <FormattedMessage id="documents.later" defaultMessage="Subir más tarde" />
        </Anchor>
      </Group>
      {org.account && <AccountStateBanner account={org.account} />}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {docs.map((doc) => (
          <DocumentCard key={doc.type} doc={doc} onChanged={refresh} />
        ))}
      </SimpleGrid>
      <GuideModal name="upload_documents" enabled={!allReadyForReview(docs) && docs.every((d) => d.attachments.length === 0)} />
      <GuideModal
        name="registration_completed"
        enabled={allReadyForReview(docs)}
        action={
          <MantineButton component="a" href="/manage/dashboard">
            <FormattedMessage id="guide.toDashboard" defaultMessage="Ir al panel" />
          </MantineButton>
        }
      />
    </Stack>
  );
}
