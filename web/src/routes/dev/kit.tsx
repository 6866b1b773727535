import { Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { createFileRoute } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { CopyLinkButton } from '../../components/CopyLinkButton';
import { DiscardDialog } from '../../components/DiscardDialog';
import { DownloadByEmailDialog } from '../../components/DownloadByEmailDialog';
import { EmptyState } from '../../components/EmptyState';
import { FullScreenModal, GenericModal, SpinnerModal } from '../../components/GenericModal';
import { GenericTable } from '../../components/GenericTable';
import { MoreActionsMenu } from '../../components/MoreActionsMenu';
import { SaveStatusBanner } from '../../components/SaveStatusBanner';
import { showToast } from '../../components/Toasts';
import { useSaveStatus } from '../../components/useSaveStatus';
import { Button, StatusBadge, TextLink, type BadgeColor, type ButtonSize, type ButtonVariant } from '../../components/variants';
import { formatMoney } from '../../donate/lib/money';
import { PageHeader } from '../../components/PageHeader';
import { SectionCard } from '../../components/SectionCard';

export const Route = createFileRoute('/dev/kit')({ component: KitPage });

const BUTTON_VARIANTS: ButtonVariant[] = ['primary', 'primary-v2', 'secondary', 'destructive', 'outline', 'ghost'];
const BUTTON_SIZES: Exclude<ButtonSize, 'icon'>[] = ['sm', 'md', 'lg'];
const BADGE_COLORS: BadgeColor[] = ['green', 'red', 'blue', 'purple'];
const DEMO_DELAY_MS = 900;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface DemoDonation {
  donor: string;
  amount: number;
  status: 'active' | 'paused' | 'discarded';
}

const FIRST = ['Ana', 'Bruno', 'Camila', 'Diego', 'Elena', 'Felipe', 'Gabriela'];
const LAST = ['Pérez', 'Souza', 'González', 'Rojas', 'Silva', 'Martínez'];
const STATUSES: DemoDonation['status'][] = ['active', 'active', 'paused', 'active', 'discarded'];
const DONATIONS: DemoDonation[] = Array.from({ length: 42 }, (_, i) => ({
  donor: `${FIRST[i % FIRST.length]} ${LAST[i % LAST.length]}`,
  amount: 1500 + ((i * 2750) % 20000),
  status: STATUSES[i % STATUSES.length] ?? 'active',
}));
const statusColor: Record<DemoDonation['status'], BadgeColor> = { active: 'green', paused: 'blue', discarded: 'red' };
const statusLabel = defineMessages({
  active: { id: 'donation.status.active', defaultMessage: 'Activa' },
  paused: { id: 'donation.status.paused', defaultMessage: 'Pausada' },
  discarded: { id: 'donation.status.discarded', defaultMessage: 'Descartada' },
});

function DonationsTable() {
  const intl = useIntl();
  const columns = useMemo<ColumnDef<DemoDonation, unknown>[]>(
    () => [
      { id: 'donor', header: intl.formatMessage({ id: 'kit.table.donor', defaultMessage: 'Donante' }), accessorKey: 'donor' },
      {
        id: 'amount',
        header: intl.formatMessage({ id: 'kit.table.amount', defaultMessage: 'Monto mensual' }),
        cell: ({ row }) => formatMoney(row.original.amount * 100, 'ARS'),
      },
      {
        id: 'status',
        header: intl.formatMessage({ id: 'kit.table.status', defaultMessage: 'Estado' }),
        cell: ({ row }) => (
          <StatusBadge color={statusColor[row.original.status]}>
            {intl.formatMessage(statusLabel[row.original.status])}
          </StatusBadge>
        ),
      },
      { id: 'actions', header: '', cell: () => <MoreActionsMenu actions={rowActions(intl)} /> },
    ],
    [intl],
  );
  return <GenericTable data={DONATIONS} columns={columns} caption={<FormattedMessage id="kit.table.caption" defaultMessage="Donaciones recientes" />} />;
}

function rowActions(intl: IntlShape) {
  const done = () => showToast({ type: 'success', message: intl.formatMessage({ id: 'kit.toast.success', defaultMessage: 'Cambios guardados' }) });
  return [
    { label: intl.formatMessage({ id: 'kit.menu.edit', defaultMessage: 'Editar' }), onClick: done },
    { label: intl.formatMessage({ id: 'kit.menu.pause', defaultMessage: 'Pausar' }), onClick: done },
    { label: intl.formatMessage({ id: 'kit.menu.discard', defaultMessage: 'Descartar' }), onClick: done, destructive: true },
  ];
}

function KitPage() {
  const intl = useIntl();
  const save = useSaveStatus();
  const [modal, modalHandlers] = useDisclosure(false);
  const [fullScreen, fullScreenHandlers] = useDisclosure(false);
  const [spinner, setSpinner] = useState(false);
  const [download, setDownload] = useState<'success' | 'failure' | null>(null);
  const [discard, discardHandlers] = useDisclosure(false);

  const reasons = [
    intl.formatMessage({ id: 'discard.reason.duplicate', defaultMessage: 'Donación duplicada' }),
    intl.formatMessage({ id: 'discard.defaultReason', defaultMessage: 'El donante pidió dejar de donar' }),
    intl.formatMessage({ id: 'discard.reason.fraud', defaultMessage: 'Sospecha de fraude' }),
  ];

  return (
    <Stack gap="lg">
      <SaveStatusBanner status={save.status} visible={save.visible} />
      <PageHeader
        title={<FormattedMessage id="kit.title" defaultMessage="Kit de interfaz" />}
        lead={<FormattedMessage id="kit.subtitle" defaultMessage="Las piezas compartidas por todas las pantallas de Aporta." />}
      />

      <SectionCard id="kit-buttons" title={<FormattedMessage id="kit.buttons" defaultMessage="Botones, enlaces y etiquetas" />}>
        <Stack gap="md">
          <Group gap="xs">
            {BUTTON_VARIANTS.map((variant) => (
              <Button key={variant} variant={variant}>
                {variant}
              </Button>
            ))}
          </Group>
          <Group gap="xs" align="center">
            {BUTTON_SIZES.map((size) => (
              <Button key={size} size={size} variant="secondary">
                {size}
              </Button>
            ))}
            <Button size="icon" variant="outline" aria-label={intl.formatMessage({ id: 'kit.iconButton', defaultMessage: 'Añadir' })}>
              +
            </Button>
          </Group>
          <Group gap="lg">
            <TextLink href="#kit-buttons" variant="primary">
              <FormattedMessage id="kit.link.primary" defaultMessage="Enlace principal" />
            </TextLink>
            <TextLink href="#kit-buttons" variant="neutral">
              <FormattedMessage id="kit.link.neutral" defaultMessage="Enlace neutro" />
            </TextLink>
          </Group>
          <Group gap="xs">
            {BADGE_COLORS.map((color) => (
              <StatusBadge key={color} color={color}>
                {color}
              </StatusBadge>
            ))}
          </Group>
        </Stack>
      </SectionCard>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <SectionCard id="kit-feedback" title={<FormattedMessage id="kit.feedback" defaultMessage="Guardado y avisos" />}>
          <Group gap="xs">
            <Button onClick={() => save.track(() => wait(DEMO_DELAY_MS))}>
              <FormattedMessage id="kit.save.ok" defaultMessage="Guardar" />
            </Button>
            <Button variant="outline" onClick={() => save.track(() => wait(DEMO_DELAY_MS).then(() => Promise.reject(new Error('demo'))))}>
              <FormattedMessage id="kit.save.fail" defaultMessage="Guardar con error" />
            </Button>
            <Button variant="secondary" onClick={() => showToast({ type: 'success', message: intl.formatMessage({ id: 'kit.toast.success', defaultMessage: 'Cambios guardados' }) })}>
              <FormattedMessage id="kit.toast.showSuccess" defaultMessage="Aviso de éxito" />
            </Button>
            <Button variant="ghost" onClick={() => showToast({ type: 'fail', message: intl.formatMessage({ id: 'kit.toast.fail', defaultMessage: 'No se pudieron guardar los cambios' }) })}>
              <FormattedMessage id="kit.toast.showFail" defaultMessage="Aviso de error" />
            </Button>
          </Group>
        </SectionCard>

        <SectionCard id="kit-share" title={<FormattedMessage id="kit.share" defaultMessage="Compartir y acciones" />}>
          <Group gap="xs" justify="space-between">
            <CopyLinkButton url="https://aporta.org/c/agua-para-todos" />
            <MoreActionsMenu actions={rowActions(intl)} />
          </Group>
        </SectionCard>
      </SimpleGrid>

      <SectionCard id="kit-modals" title={<FormattedMessage id="kit.modals" defaultMessage="Ventanas" />}>
        <Group gap="xs">
          <Button variant="outline" onClick={modalHandlers.open}>
            <FormattedMessage id="kit.modal.open" defaultMessage="Ventana simple" />
          </Button>
          <Button variant="outline" onClick={fullScreenHandlers.open}>
            <FormattedMessage id="kit.fullScreen.open" defaultMessage="Pantalla completa" />
          </Button>
          <Button
            variant="outline"
            onClick={() => {
              setSpinner(true);
              void wait(DEMO_DELAY_MS * 2).then(() => setSpinner(false));
            }}
          >
            <FormattedMessage id="kit.spinner.open" defaultMessage="Procesando" />
          </Button>
          <Button variant="outline" onClick={() => setDownload('success')}>
            <FormattedMessage id="kit.download.open" defaultMessage="Descargar por correo" />
          </Button>
          <Button variant="outline" onClick={() => setDownload('failure')}>
            <FormattedMessage id="kit.download.openFailing" defaultMessage="Descarga con error" />
          </Button>
          <Button variant="destructive" onClick={discardHandlers.open}>
            <FormattedMessage id="kit.discard.open" defaultMessage="Descartar donación" />
          </Button>
        </Group>

        <GenericModal
          opened={modal}
          onClose={modalHandlers.close}
          title={<FormattedMessage id="kit.modal.title" defaultMessage="Código QR de la campaña" />}
          subtitle={<FormattedMessage id="kit.modal.subtitle" defaultMessage="Agua para todos" />}
        >
          <Text size="sm">
            <FormattedMessage id="kit.modal.body" defaultMessage="Descarga el código para tus materiales impresos." />
          </Text>
        </GenericModal>
        <FullScreenModal
          opened={fullScreen}
          onClose={fullScreenHandlers.close}
          title={<FormattedMessage id="kit.fullScreen.title" defaultMessage="Vista previa del formulario" />}
        >
          <EmptyState
            title={<FormattedMessage id="kit.fullScreen.emptyTitle" defaultMessage="Sin campos todavía" />}
            description={<FormattedMessage id="kit.fullScreen.emptyBody" defaultMessage="Arrastra campos desde la caja de herramientas." />}
          />
        </FullScreenModal>
        <SpinnerModal opened={spinner} label={<FormattedMessage id="kit.spinner.label" defaultMessage="Procesando, espera un momento…" />} />
        <DownloadByEmailDialog
          opened={download !== null}
          onClose={() => setDownload(null)}
          title={<FormattedMessage id="kit.download.title" defaultMessage="Descargar potenciales donantes" />}
          description={
            <FormattedMessage
              id="kit.download.description"
              defaultMessage="Te enviaremos por correo un enlace con las personas que no terminaron el formulario en los últimos 90 días. Puede tardar unas horas y el enlace vale 24 horas."
            />
          }
          onConfirm={async () => {
            await wait(DEMO_DELAY_MS);
            if (download === 'failure') throw new Error(intl.formatMessage({ id: 'kit.download.error', defaultMessage: 'No pudimos generar la descarga. Inténtalo más tarde.' }));
          }}
        />
        <DiscardDialog opened={discard} onClose={discardHandlers.close} reasons={reasons} onConfirm={() => wait(DEMO_DELAY_MS)} />
      </SectionCard>

      <SectionCard id="kit-table" title={<FormattedMessage id="kit.table" defaultMessage="Tabla" />}>
        <DonationsTable />
      </SectionCard>

      <SectionCard id="kit-empty" title={<FormattedMessage id="kit.empty" defaultMessage="Estado vacío" />}>
        <EmptyState
          title={<FormattedMessage id="kit.empty.title" defaultMessage="Aún no tienes campañas" />}
          description={<FormattedMessage id="kit.empty.body" defaultMessage="Crea tu primera campaña y comparte el enlace con tu comunidad." />}
          learnMoreHref="#kit-empty"
        />
      </SectionCard>
    </Stack>
  );
}
