import { ActionIcon, Button as MantineButton, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { CopyLinkButton } from '../../components/CopyLinkButton';
import { EmptyState } from '../../components/EmptyState';
import { GenericTable } from '../../components/GenericTable';
import { StatusBadge } from '../../components/variants';
import { campaignsQuery, publicUrl, type Campaign } from './api';
import { typeName } from './labels';
import { QrDialog } from './QrDialog';
import { PageHeader } from '../../components/PageHeader';

export function CampaignListPage() {
  const intl = useIntl();
  const { data } = useSuspenseQuery(campaignsQuery()); // the route's loader has it in the cache
  const [qrFor, setQrFor] = useState<Campaign | null>(null);

  const columns = useMemo<ColumnDef<Campaign, unknown>[]>(
    () => [
      {
        id: 'title',
        header: intl.formatMessage({ id: 'campaigns.col.title', defaultMessage: 'Campaña' }),
        cell: ({ row }) => (
          <Stack gap={0}>
            <Link to="/manage/campaigns/$uuid" params={{ uuid: row.original.uuid }} style={{ fontWeight: 600, color: 'var(--mantine-color-brand-8)' }}>
              {row.original.title}
            </Link>
            <Text size="xs" c="dimmed">{row.original.public_path}</Text>
          </Stack>
        ),
      },
      { id: 'type', header: intl.formatMessage({ id: 'campaigns.col.type', defaultMessage: 'Tipo' }), cell: ({ row }) => typeName(intl, row.original.type) },
      {
        id: 'status',
        header: intl.formatMessage({ id: 'campaigns.col.status', defaultMessage: 'Estado' }),
        cell: ({ row }) =>
          row.original.published ? (
            <StatusBadge color="green"><FormattedMessage id="campaigns.status.published" defaultMessage="Publicada" /></StatusBadge>
          ) : (
            <StatusBadge color="purple"><FormattedMessage id="campaigns.status.unpublished" defaultMessage="Sin publicar" /></StatusBadge>
          ),
      },
      {
        id: 'actions',
        header: intl.formatMessage({ id: 'campaigns.col.actions', defaultMessage: 'Compartir' }),
        cell: ({ row }) => (
          <Group gap="xs" wrap="nowrap">
            <CopyLinkButton url={publicUrl(row.original)} />
            <Tooltip label={intl.formatMessage({ id: 'campaigns.qr.open', defaultMessage: 'Código QR' })}>
              <ActionIcon variant="light" size="lg" onClick={() => setQrFor(row.original)}
                aria-label={intl.formatMessage({ id: 'campaigns.qr.openFor', defaultMessage: 'Código QR de {title}' }, { title: row.original.title })}>
                <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden>
                  <rect x="3" y="3" width="7" height="7" /><rect x="14" y="3" width="7" height="7" /><rect x="3" y="14" width="7" height="7" /><path d="M14 14h3v3h-3zM20 14v7M14 20h3" />
                </svg>
              </ActionIcon>
            </Tooltip>
          </Group>
        ),
      },
    ],
    [intl],
  );

  return (
    <Stack gap="lg">
      <PageHeader
        title={<FormattedMessage id="campaigns.title" defaultMessage="Campañas" />}
        lead={<FormattedMessage id="campaigns.lead" defaultMessage="Tus formularios de donación, su estado y los enlaces para compartirlos." />}
        action={
          <MantineButton component={Link} to="/manage/campaigns/choose_type" color="brand">
            <FormattedMessage id="campaigns.new" defaultMessage="Nueva campaña" />
          </MantineButton>
        }
      />
      <Paper withBorder radius="lg" p={{ base: 'xs', sm: 'md' }}>
          <GenericTable
            data={data}
            columns={columns}
            caption={<FormattedMessage id="campaigns.caption" defaultMessage="Campañas de la organización" />}
            empty={
              <EmptyState
                title={<FormattedMessage id="campaigns.empty.title" defaultMessage="Todavía no tienes campañas" />}
                description={<FormattedMessage id="campaigns.empty.description" defaultMessage="Crea tu primera campaña para empezar a recibir donaciones." />}
              />
            }
          />
        </Paper>
      <QrDialog campaign={qrFor} onClose={() => setQrFor(null)} />
    </Stack>
  );
}
