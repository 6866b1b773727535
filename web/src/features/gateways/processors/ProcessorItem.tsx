import { Alert, Anchor, Badge, Box, Chip, Group, Paper, Popover, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { DialogActions, GenericModal } from '../../../components/GenericModal';
import { Button } from '../../../components/variants';
import { useRequest } from '../useRequest';
import { formatActivation } from '../format';
import { ActiveBadge } from '../GatewayItem';
import { discardProcessor, GLOBAL, track, type GatewayOption, type PaymentProcessor } from './api';

export const optionName = (id: string) =>
  id === GLOBAL ? (
    <FormattedMessage id="processor.global" defaultMessage="Pagos globales" />
  ) : (
    <FormattedMessage id="processor.local" defaultMessage="Pagos locales" />
  );

/**
 * One integrated gateway of the block (spec §2): active with its activation date, descriptor and rules (campaign
 * chips) and Edit and Discard; otherwise its description with the fee and Choose — disabled at the limit of local
 * processors, and for global payments without the plan or flag a popover pointing to the plans.
 */
export function ProcessorItem({ option, processor, timezone, onChoose, onEdit, onDiscarded }: {
  option: GatewayOption;
  processor?: PaymentProcessor;
  timezone?: string;
  onChoose: () => void;
  onEdit: () => void;
  onDiscarded: () => void;
}) {
  const intl = useIntl();
  const [discarding, setDiscarding] = useState(false);
  const isGlobal = option.id === GLOBAL;
  const dt = (label: ReactNode, value: ReactNode, field: string) => (
    <>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Box component="dd" m={0} data-field={field} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Box>
    </>
  );

  return (
    <Paper withBorder radius="md" p="md" data-processor={option.id} data-status={processor ? 'active' : 'inactive'}>
      <Stack gap="sm">
        <Group gap="xs" wrap="wrap">
          <Text fw={700} component="h3" m={0} size="md">
            {optionName(option.id)}
          </Text>
          {isGlobal && (
            <Badge color="grape" variant="light">
              <FormattedMessage id="processor.new" defaultMessage="Nuevo" />
            </Badge>
          )}
          {processor && <ActiveBadge />}
        </Group>
        {processor ? (
          <Box component="dl" m={0} style={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: 16, rowGap: 4 }}>
            {dt(<FormattedMessage id="gateways.activatedAt" defaultMessage="Activa desde" />, <Text size="sm" fw={600}>{formatActivation(processor.created_at, intl.locale, timezone)}</Text>, 'activated_at')}
            {processor.gateway_account_name &&
              dt(<FormattedMessage id="gateways.account" defaultMessage="Cuenta vinculada" />, <Text size="sm" fw={600}>{processor.gateway_account_name}</Text>, 'account_name')}
            {dt(<FormattedMessage id="processor.descriptorShort" defaultMessage="Descriptor" />, <Text size="sm" fw={600}>{processor.statement_descriptor}</Text>, 'descriptor')}
            {isGlobal &&
              dt(
                <FormattedMessage id="processor.rules" defaultMessage="Reglas de cobro" />,
                <Stack gap={4}>
                  {processor.rules.retry && (
                    <Text size="sm" fw={600}>
                      <FormattedMessage id="processor.retryShort" defaultMessage="Reintenta los cobros rechazados" />
                    </Text>
                  )}
                  {processor.rules.campaigns.length > 0 && (
                    <Group gap={6} miw={0}>
                      {processor.rules.campaigns.map((c) => (
                        <Chip key={c.uuid} checked={false} size="xs" variant="outline" readOnly maw="100%"
                          styles={{ label: { maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis' } }} title={c.title}>
                          {c.title}
                        </Chip>
                      ))}
                    </Group>
                  )}
                </Stack>,
                'rules',
              )}
          </Box>
        ) : (
          <Text size="sm" c="dimmed">
            {isGlobal ? (
              <FormattedMessage id="processor.global.body" defaultMessage="Cobra con tarjetas de todo el mundo y reintenta los cobros que tu pasarela rechace. Costo por cobro aprobado: {fee} %." values={{ fee: option.fee }} />
            ) : (
              <FormattedMessage id="processor.local.body" defaultMessage="Cobra con los medios de pago locales de tu país sin conectar una cuenta propia. Costo por cobro aprobado: {fee} %." values={{ fee: option.fee }} />
            )}
          </Text>
        )}
        <Group gap="sm" wrap="wrap">
          {processor ? (
            <>
              <Button variant="outline" size="sm" onClick={onEdit}>
                <FormattedMessage id="bankAccount.edit" defaultMessage="Editar" />
              </Button>
              <Button variant="ghost" size="sm" onClick={() => setDiscarding(true)}>
                <FormattedMessage id="processor.discard" defaultMessage="Descartar" />
              </Button>
            </>
          ) : option.available ? (
            <Button size="sm" onClick={() => { track('click_create_payment_processor', option.id); onChoose(); }}>
              <FormattedMessage id="processor.choose" defaultMessage="Elegir" />
            </Button>
          ) : option.reason === 'processor.global_not_available' ? (
            <NotAvailable gatewayId={option.id} />
          ) : (
            <Button size="sm" disabled title={intl.formatMessage({ id: 'processor.limitHint', defaultMessage: 'Ya tienes un procesador de este tipo: edítalo o descártalo.' })}>
              <FormattedMessage id="processor.choose" defaultMessage="Elegir" />
            </Button>
          )}
        </Group>
      </Stack>
      {processor && (
        <DiscardProcessorDialog opened={discarding} onClose={() => setDiscarding(false)} name={optionName(option.id)}
          onConfirm={async () => { await discardProcessor(processor.uuid); onDiscarded(); }} />
      )}
    </Paper>
  );
}

/** Global payments without the plan or flag: Choose explains why and links to the plans (spec §2). */
function NotAvailable({ gatewayId }: { gatewayId: string }) {
  return (
    // hideDetached off: the target sits in the accordion's panel, which clips it while it opens, and the hide check made
    // then is not run again when the panel settles, so the explanation stayed hidden (display: none) though opened.
    <Popover width={280} position="bottom-start" withArrow shadow="md" hideDetached={false}>
      <Popover.Target>
        <Button size="sm" onClick={() => track('click_disabled_global_payments_message', gatewayId)}>
          <FormattedMessage id="processor.choose" defaultMessage="Elegir" />
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" role="note">
          <Text size="sm">
            <FormattedMessage id="processor.globalNotAvailable" defaultMessage="Los pagos globales no están disponibles en tu plan." />
          </Text>
          <Anchor href="/account/subscriptions/choose" size="sm" fw={600}>
            <FormattedMessage id="processor.seePlans" defaultMessage="Ver planes" />
          </Anchor>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Confirms discarding a processor; a failure stays open with the server's message. */
function DiscardProcessorDialog({ opened, onClose, onConfirm, name }: { opened: boolean; onClose: () => void; onConfirm: () => Promise<void>; name: ReactNode }) {
  const request = useRequest();
  const close = () => {
    request.reset();
    onClose();
  };
  return (
    <GenericModal opened={opened} onClose={close} pending={request.pending} title={<FormattedMessage id="processor.discardTitle" defaultMessage="¿Descartar {gateway}?" values={{ gateway: name }} />}>
      <Stack gap="md">
        <Text size="sm">
          <FormattedMessage id="processor.discardBody" defaultMessage="Las donaciones que cobraba pasan a tu pasarela conectada. Puedes volver a activarlo cuando quieras." />
        </Text>
        {request.error && (
          <Alert color="red" variant="light" role="alert">
            {request.error}
          </Alert>
        )}
        <DialogActions onCancel={close} busy={request.pending} wrapReverse>
          <Button variant="destructive" loading={request.pending} onClick={async () => { if (await request.run(onConfirm)) close(); }}>
            <FormattedMessage id="processor.discard" defaultMessage="Descartar" />
          </Button>
        </DialogActions>
      </Stack>
    </GenericModal>
  );
}
