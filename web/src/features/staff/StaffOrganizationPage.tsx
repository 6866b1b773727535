import { Alert, Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Textarea, Timeline, Title } from '@mantine/core';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { errorText } from '../../api/client';
import { FormModal } from '../../components/FormModal';
import { Button } from '../../components/variants';
import { AccountStateBanner } from '../documents/AccountStateBanner';
import { orderedDocuments, type OrgDocument } from '../documents/api';
import { GrantPlanSection, planName } from './GrantPlan';
import { approveDocument, enableAccount, rejectDocument, staffOrganizationQuery, type AuditEntry, type StaffOrganization } from './api';
import { TimeLeft } from './StaffListPage';
import { ActionPanel } from './ActionPanel';
import { Crumbs } from '../../components/PageHeader';
import { SectionCard } from '../../components/SectionCard';


const statusColor: Record<string, string> = { approved: 'green', rejected: 'red', ready_for_review: 'yellow', pending: 'gray' };

function StatusText({ status }: { status: string }) {
  switch (status) {
    case 'approved':
      return <FormattedMessage id="staff.status.approved" defaultMessage="Aprobado" />;
    case 'rejected':
      return <FormattedMessage id="staff.status.rejected" defaultMessage="Rechazado" />;
    case 'ready_for_review':
      return <FormattedMessage id="staff.status.ready" defaultMessage="Para revisar" />;
    default:
      return <FormattedMessage id="staff.status.pending" defaultMessage="Sin enviar" />;
  }
}

export function StaffOrganizationPage({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const { data: org } = useSuspenseQuery(staffOrganizationQuery(id)); // the route's loader has it in the cache
  const [enableError, setEnableError] = useState<string>();
  const [enabling, setEnabling] = useState(false);
  const docs = orderedDocuments(org);
  const set = (next: StaffOrganization | undefined) =>
    next?.documents ? queryClient.setQueryData(staffOrganizationQuery(id).queryKey, next) : queryClient.invalidateQueries({ queryKey: ['staff'] });
  const allApproved = docs.length > 0 && docs.every((d) => d.status === 'approved');
  const enabled = org.account?.state === 'enabled' || org.status === 'enabled';

  const enable = async () => {
    setEnabling(true);
    setEnableError(undefined);
    try {
      await set(await enableAccount(id));
      await queryClient.invalidateQueries({ queryKey: ['staff'] });
    } catch (e) {
      setEnableError(errorText(e));
    } finally {
      setEnabling(false);
    }
  };

  return (
    <Stack gap="lg">
      <Crumbs up={<Anchor component={Link} to="/staff" size="sm"><FormattedMessage id="staff.nav.organizations" defaultMessage="Organizaciones" /></Anchor>} current={org.name} />
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div>
          <Title order={1} size="h2">
            {org.name}
          </Title>
          <Text c="dimmed" mt={4}>
            {org.country} · {org.uid_type} {org.uid}
          </Text>
        </div>
        {org.review?.open && <TimeLeft hours={org.review.hours_left} />}
      </Group>
      {org.account && <AccountStateBanner account={org.account} />}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {docs.map((doc) => (
          <StaffDocument key={doc.type} org={id} doc={doc} onChange={set} />
        ))}
      </SimpleGrid>
      <ActionPanel
        titleId="enable-title"
        title={<FormattedMessage id="staff.enableTitle" defaultMessage="Habilitar la cuenta" />}
        hint={
          enabled ? (
            <FormattedMessage id="staff.enabledAlready" defaultMessage="La cuenta ya está habilitada." />
          ) : (
            <FormattedMessage id="staff.enableHint" defaultMessage="Disponible cuando todos los documentos estén aprobados." />
          )
        }
        action={
          <Button onClick={enable} loading={enabling} disabled={!allApproved || enabled}>
            <FormattedMessage id="staff.enable" defaultMessage="Habilitar cuenta" />
          </Button>
        }
      >
        {enableError && (
          <Text role="alert" c="red.8" size="sm" mt="sm">
            {enableError}
          </Text>
        )}
      </ActionPanel>
      <GrantPlanSection org={id} name={org.name} />
      <AuditLog entries={org.audit_log ?? []} labels={Object.fromEntries(docs.map((d) => [d.type, d.label]))} />
    </Stack>
  );
}

function StaffDocument({ org, doc, onChange }: { org: string; doc: OrgDocument; onChange: (o: StaffOrganization) => unknown }) {
  const intl = useIntl();
  const [approving, setApproving] = useState(false);
  const [error, setError] = useState<string>();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string>();
  const decidable = doc.status === 'ready_for_review';

  const approve = async () => {
    setApproving(true);
    setError(undefined);
    try {
      onChange(await approveDocument(org, doc.type));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setApproving(false);
    }
  };
  const reject = async () => {
    if (!reason.trim()) {
      setReasonError(intl.formatMessage({ id: 'staff.reasonRequired', defaultMessage: 'Escribe el motivo del rechazo.' }));
      return false;
    }
    setReasonError(undefined);
    try {
      onChange(await rejectDocument(org, doc.type, reason.trim()));
    } catch (e) {
      setReasonError(errorText(e));
      return false;
    }
    setReason('');
    return true;
  };

  return (
    <Paper withBorder radius="lg" p="lg" component="article" aria-labelledby={`sd-${doc.type}`} data-document={doc.type} data-status={doc.status}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={2} size="h4" id={`sd-${doc.type}`}>
            {doc.label}
          </Title>
          <Badge color={statusColor[doc.status] ?? 'gray'} variant="light">
            <StatusText status={doc.status} />
          </Badge>
        </Group>
        {doc.rejected_reason?.label && (
          <Alert color="red" variant="light">
            {doc.rejected_reason.label}
          </Alert>
        )}
        {doc.attachments.length === 0 ? (
          <Text size="sm" c="dimmed">
            <FormattedMessage id="staff.noFiles" defaultMessage="Sin archivos." />
          </Text>
        ) : (
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {doc.attachments.map((a) => (
              <li key={a.id}>
                <Anchor href={a.url} target="_blank" rel="noreferrer" size="sm">
                  <FormattedMessage id="staff.viewFile" defaultMessage="Ver {name}" values={{ name: a.original_filename }} />
                </Anchor>
              </li>
            ))}
          </Stack>
        )}
        {error && (
          <Text role="alert" c="red.8" size="sm">
            {error}
          </Text>
        )}
        {decidable && (
          <Group gap="sm">
            <Button onClick={approve} loading={approving} disabled={approving} aria-label={intl.formatMessage({ id: 'staff.approveDoc', defaultMessage: 'Aprobar {doc}' }, { doc: doc.label })}>
              <FormattedMessage id="staff.approve" defaultMessage="Aprobar" />
            </Button>
            <Button variant="outline" onClick={() => setRejecting(true)} disabled={approving} aria-label={intl.formatMessage({ id: 'staff.rejectDoc', defaultMessage: 'Rechazar {doc}' }, { doc: doc.label })}>
              <FormattedMessage id="staff.reject" defaultMessage="Rechazar" />
            </Button>
          </Group>
        )}
      </Stack>
      <FormModal
        opened={rejecting}
        onClose={() => setRejecting(false)}
        title={<FormattedMessage id="staff.rejectTitle" defaultMessage="Rechazar {doc}" values={{ doc: doc.label }} />}
        subtitle={<FormattedMessage id="staff.rejectSubtitle" defaultMessage="La organización verá este motivo." />}
        submit={reject}
        confirm={<FormattedMessage id="staff.reject" defaultMessage="Rechazar" />}
        destructive
      >
        <Textarea
          label={<FormattedMessage id="staff.reason" defaultMessage="Motivo" />}
          required
          autosize
          minRows={3}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={reasonError}
          data-autofocus
        />
      </FormModal>
    </Paper>
  );
}

function AuditAction({ entry, label }: { entry: AuditEntry; label: string }) {
  const intl = useIntl();
  const plan = planName(intl, entry.plan_code ?? '');
  const values = { doc: label, who: entry.staff_email };
  switch (entry.action) {
    case 'approve_document':
      return <FormattedMessage id="staff.audit.approve" defaultMessage="{who} aprobó {doc}" values={values} />;
    case 'reject_document':
      return <FormattedMessage id="staff.audit.reject" defaultMessage="{who} rechazó {doc}" values={values} />;
    case 'enable_account':
      return <FormattedMessage id="staff.audit.enable" defaultMessage="{who} habilitó la cuenta" values={values} />;
    case 'view_attachment':
      return <FormattedMessage id="staff.audit.view" defaultMessage="{who} abrió un archivo de {doc}" values={values} />;
    case 'grant_plan':
      return <FormattedMessage id="staff.audit.plan" defaultMessage="{who} asignó el plan {plan}" values={{ ...values, plan }} />;
    default:
      return <>{`${entry.staff_email}: ${entry.action}`}</>;
  }
}

function AuditLog({ entries, labels }: { entries: AuditEntry[]; labels: Record<string, string> }) {
  return (
    <SectionCard id="audit-title" title={<FormattedMessage id="staff.audit.title" defaultMessage="Registro de auditoría" />}>
      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          <FormattedMessage id="staff.audit.empty" defaultMessage="Todavía no hay acciones registradas." />
        </Text>
      ) : (
        <Timeline bulletSize={12} lineWidth={2}>
          {entries.map((e) => (
            <Timeline.Item key={e.id} data-audit={e.action}>
              <Text size="sm">
                <AuditAction entry={e} label={e.document_type ? (labels[e.document_type] ?? e.document_type) : ''} />
              </Text>
              {e.reason && (
                <Text size="sm" c="dimmed">
                  “{e.reason}”
                </Text>
              )}
              <Text size="xs" c="dimmed">
                <FormattedDate value={e.created_at} dateStyle="medium" timeStyle="short" />
              </Text>
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </SectionCard>
  );
}
