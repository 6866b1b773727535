import { Alert, Anchor, Badge, FileButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorText } from '../../api/client';
import { Button } from '../../components/variants';
import { deleteAttachment, requestReview, uploadDocument, type OrgDocument } from './api';
import { checkDocumentFile, DOCUMENT_ACCEPT, resolvedCard } from './card';


/** One required document: banner by status, its files, and the §4 buttons. */
export function DocumentCard({ doc, onChanged }: { doc: OrgDocument; onChanged: () => Promise<unknown> }) {
  const intl = useIntl();
  const { banner, actions } = resolvedCard(doc);
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const headingId = `doc-${doc.type}`;

  const run = async (what: string, work: () => Promise<unknown>) => {
    setBusy(what);
    setError(undefined);
    try {
      await work();
      await onChanged();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(undefined);
    }
  };

  const onFile = (file: File | null) => {
    if (!file) return;
    const problem = checkDocumentFile(file);
    if (problem) {
      setError(
        problem === 'document.invalid_file_size'
          ? intl.formatMessage({ id: 'documents.invalidFileSize', defaultMessage: 'El archivo debe pesar menos de 50 MB.' })
          : intl.formatMessage({ id: 'documents.invalidFile', defaultMessage: 'Archivo no válido: sube un PNG, JPG, PDF, DOC o DOCX.' }),
      );
      return;
    }
    void run('upload', () => uploadDocument(doc.type, file));
  };

  const uploadButton = (label: React.ReactNode, variant: 'primary' | 'outline') => (
    <FileButton onChange={onFile} accept={DOCUMENT_ACCEPT}>
      {(props) => (
        <Button {...props} variant={variant} loading={busy === 'upload'} disabled={!!busy && busy !== 'upload'}>
          {label}
        </Button>
      )}
    </FileButton>
  );

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="article" aria-labelledby={headingId} data-document={doc.type} data-status={doc.status}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <div>
            <Title order={3} size="h4" id={headingId}>
              {doc.label}
            </Title>
            <Text size="sm" c="dimmed" mt={2}>
              {doc.description}
            </Text>
          </div>
          {doc.help_center_url && (
            <Anchor href={doc.help_center_url} target="_blank" rel="noreferrer" size="sm" style={{ whiteSpace: 'nowrap' }}>
              <FormattedMessage id="documents.help" defaultMessage="Ayuda" />
            </Anchor>
          )}
        </Group>

        {banner === 'in_verification' && (
          <Alert color="yellow" variant="light" data-banner="in_verification">
            <FormattedMessage id="documents.banner.inVerification" defaultMessage="En verificación: lo revisaremos en menos de 48 horas hábiles." />
          </Alert>
        )}
        {banner === 'approved' && (
          <Alert color="green" variant="light" data-banner="approved">
            <FormattedMessage id="documents.banner.approved" defaultMessage="Documento aprobado." />
          </Alert>
        )}
        {banner === 'rejected' && (
          <Alert color="red" variant="light" data-banner="rejected" title={<FormattedMessage id="documents.banner.rejected" defaultMessage="Documento rechazado" />}>
            {doc.rejected_reason?.label}
          </Alert>
        )}

        {doc.attachments.length > 0 && (
          <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={intl.formatMessage({ id: 'documents.files', defaultMessage: 'Archivos subidos' })}>
            {doc.attachments.map((a) => (
              <Group key={a.id} component="li" justify="space-between" wrap="nowrap" gap="xs" p={8} bg="gray.0" style={{ borderRadius: 8 }}>
                <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
                  <Anchor href={a.url} target="_blank" rel="noreferrer" size="sm" truncate>
                    {a.original_filename}
                  </Anchor>
                  {a.status === 'rejected' && (
                    <Badge color="red" variant="light" size="sm">
                      <FormattedMessage id="documents.fileRejected" defaultMessage="Rechazado" />
                    </Badge>
                  )}
                </Group>
                {actions.delete_attachment && (
                  <Button
                    size="sm"
                    variant="ghost"
                    loading={busy === a.id}
                    disabled={!!busy && busy !== a.id}
                    aria-label={intl.formatMessage({ id: 'documents.deleteFile', defaultMessage: 'Eliminar {name}' }, { name: a.original_filename })}
                    onClick={() => run(a.id, () => deleteAttachment(a.id))}
                  >
                    <FormattedMessage id="documents.delete" defaultMessage="Eliminar" />
                  </Button>
                )}
              </Group>
            ))}
          </Stack>
        )}

        {error && (
          <Text role="alert" c="red.8" size="sm">
            {error}
          </Text>
        )}

        <Group gap="sm">
          {actions.request_review && (
            <Button loading={busy === 'review'} disabled={!!busy && busy !== 'review'} onClick={() => run('review', () => requestReview(doc.type))}>
              <FormattedMessage id="documents.readyForReview" defaultMessage="Listo para verificación" />
            </Button>
          )}
          {actions.upload_more && uploadButton(<FormattedMessage id="documents.uploadMore" defaultMessage="Subir más páginas" />, 'outline')}
          {actions.upload && uploadButton(<FormattedMessage id="documents.upload" defaultMessage="Subir archivo" />, 'primary')}
          {actions.upload_again && uploadButton(<FormattedMessage id="documents.uploadAgain" defaultMessage="Volver a subir" />, 'primary')}
        </Group>
      </Stack>
    </Paper>
  );
}
