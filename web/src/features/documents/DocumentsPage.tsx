import { Anchor, Button as MantineButton, SimpleGrid, Stack } from '@mantine/core';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { StepBar } from '../accounts/StepBar';
import { GuideModal } from '../onboarding/GuideModal';
import { organizationQuery, orderedDocuments } from './api';
import { allReadyForReview } from './card';
import { DocumentCard } from './DocumentCard';
import { AccountStateBanner } from './AccountStateBanner';
import { PageHeader } from '../../components/PageHeader';

/** The document cards; `onboarding` adds the signup's step bar, its guides and the "upload later" way out. */
export function DocumentsPage({ onboarding }: { onboarding: boolean }) {
  const queryClient = useQueryClient();
  const { data: org } = useSuspenseQuery(organizationQuery()); // the route's loader has it in the cache
  const docs = orderedDocuments(org);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['organization'] });
  return (
    <Stack gap="lg">
      {onboarding && <StepBar steps={{ verification: 'completed', gateway: 'completed', documents: 'active' }} />}
      <PageHeader
        title={<FormattedMessage id="documents.title" defaultMessage="Documentos de la organización" />}
        lead={<FormattedMessage id="documents.lead" defaultMessage="Sube cada documento y envíalo a verificación. Revisamos en menos de 48 horas hábiles." />}
        action={
          onboarding && (
            <Anchor href="/manage/dashboard" size="sm" fw={600}>
              <FormattedMessage id="documents.later" defaultMessage="Subir más tarde" />
            </Anchor>
          )
        }
      />
      {org.account && <AccountStateBanner account={org.account} />}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {docs.map((doc) => (
          <DocumentCard key={doc.type} doc={doc} onChanged={refresh} />
        ))}
      </SimpleGrid>
      <GuideModal name="upload_documents" enabled={onboarding && !allReadyForReview(docs) && docs.every((d) => d.attachments.length === 0)} />
      <GuideModal
        name="registration_completed"
        enabled={onboarding && allReadyForReview(docs)}
        action={
          <MantineButton component="a" href="/manage/dashboard">
            <FormattedMessage id="guide.toDashboard" defaultMessage="Ir al panel" />
          </MantineButton>
        }
      />
    </Stack>
  );
}
