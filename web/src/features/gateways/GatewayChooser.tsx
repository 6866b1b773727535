import { Accordion, Alert, Badge, Box, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../components/variants';
import { deleteConnection, gatewaysQuery, type Gateway, type ReturnTo } from './api';
import { gatewayInfo, gatewayName, type GatewayInfo } from './catalogue';
import { CentralPosModal } from './CentralPosModal';
import { DeleteGatewayDialog } from './DeleteGatewayDialog';
import { formatActivation } from './format';
import { ActiveBadge, GatewayItem } from './GatewayItem';
import { OAuthConnectForm } from './OAuthConnectForm';

export interface GatewayChooserProps {
  gateways: Gateway[];
  /** The organisation's timezone, for the activation date. */
  timezone?: string;
  /** Which page the OAuth callback comes back to. */
  returnTo: ReturnTo;
  /** The block to open first (the one just connected, say); otherwise the one that needs attention. */
  initialOpen?: string;
  onConnected: (gateway: string) => void;
  /** More blocks of the list (Accordion items): the settings page's integrated payments. */
  children?: ReactNode;
}

/** The regular gateways the screen knows, in the API's order, each with what the screen shows of it. */
const knownGateways = (gateways: Gateway[]) =>
  gateways.flatMap((gateway) => {
    const info = gatewayInfo(gateway.id);
    return info ? [{ gateway, info }] : [];
  });

function firstOpen(gateways: Gateway[], initial?: string): string | null {
  if (initial && gateways.some((g) => g.id === initial)) return initial;
  const pick =
    gateways.find((g) => g.connection?.status === 'needs_reconnection') ?? gateways.find((g) => g.enabled) ?? gateways[0];
  return pick?.id ?? null;
}

/**
 * The collapsible list of gateways, one block open at a time (spec §2 "Gateways page"): Select for the ones not
 * connected, Delete (and Reconnect when the gateway refused our tokens) for the connected ones. Used by the
 * settings page and by the onboarding step.
 */
export function GatewayChooser({ gateways, timezone, returnTo, initialOpen, onConnected, children }: GatewayChooserProps) {
  const queryClient = useQueryClient();
  const shown = knownGateways(gateways);
  const [open, setOpen] = useState<string | null>(() => firstOpen(shown.map((s) => s.gateway), initialOpen));
  const [codeOpen, setCodeOpen] = useState(false);
  const [deleting, setDeleting] = useState<Gateway>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: gatewaysQuery().queryKey });
  // With more than one gateway connected, say which one new donations charge through.
  const several = gateways.filter((g) => g.enabled).length > 1;

  return (
    <>
      <Accordion
        value={open}
        onChange={setOpen}
        variant="separated"
        radius="lg"
        order={2}
        chevronPosition="right"
        // Collapsed blocks keep their card look on the page's grey background.
        styles={{ item: { backgroundColor: 'var(--mantine-color-white)', border: '1px solid var(--mantine-color-gray-3)' } }}
      >
        {shown.map(({ gateway: g, info }) => (
          <GatewayBlock
            key={g.id}
            gateway={g}
            info={info}
            timezone={timezone}
            showReceiving={several}
            connect={(label) =>
              info.connect === 'oauth' ? (
                <OAuthConnectForm gateway={g.id} returnTo={returnTo}>
                  {label}
                </OAuthConnectForm>
              ) : (
                <Button onClick={() => setCodeOpen(true)}>{label}</Button>
              )
            }
            onDelete={() => setDeleting(g)}
          />
        ))}
        {children}
      </Accordion>
      <CentralPosModal
        opened={codeOpen}
        onClose={() => setCodeOpen(false)}
        onConnected={() => {
          setCodeOpen(false);
          setOpen('centralpos');
          onConnected('centralpos');
          void refresh();
        }}
      />
      <DeleteGatewayDialog
        name={deleting ? gatewayName(deleting.id) : ''}
        opened={deleting !== undefined}
        onClose={() => setDeleting(undefined)}
        onConfirm={async () => {
          if (!deleting?.connection) return;
          await deleteConnection(deleting.connection.id);
          await refresh();
        }}
      />
    </>
  );
}

interface GatewayBlockProps {
  gateway: Gateway;
  info: GatewayInfo;
  timezone?: string;
  /** Mark the connection new donations charge through (when more than one is connected). */
  showReceiving: boolean;
  /** The gateway's way of connecting (a form post or a modal), under the given label. */
  connect: (label: ReactNode) => ReactNode;
  onDelete: () => void;
}

function GatewayBlock({ gateway, info, timezone, showReceiving, connect, onDelete }: GatewayBlockProps) {
  const intl = useIntl();
  const connection = gateway.enabled ? gateway.connection : null;
  const needsReconnection = connection?.status === 'needs_reconnection';
  return (
    <GatewayItem
      id={gateway.id}
      status={connection?.status ?? 'not_connected'}
      name={info.name}
      badges={
        <>
          {connection &&
            (needsReconnection ? (
              <Badge color="orange" variant="light">
                <FormattedMessage id="gateways.needsReconnection" defaultMessage="Requiere reconexión" />
              </Badge>
            ) : (
              <ActiveBadge />
            ))}
          {showReceiving && connection?.receives_new_donations && (
            <Badge color="blue" variant="light" data-field="receives_new_donations">
              <FormattedMessage id="gateways.receivesNewDonations" defaultMessage="Recibe las donaciones nuevas" />
            </Badge>
          )}
        </>
      }
      description={info.description}
    >
      {connection && (
        <Box component="dl" m={0} style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 16, rowGap: 4 }}>
          <Text component="dt" size="sm" c="dimmed">
            <FormattedMessage id="gateways.activatedAt" defaultMessage="Activa desde" />
          </Text>
          <Text component="dd" size="sm" fw={600} m={0} data-field="activated_at">
            {formatActivation(connection.activated_at, intl.locale, timezone)}
          </Text>
          {connection.account_name && (
            <>
              <Text component="dt" size="sm" c="dimmed">
                <FormattedMessage id="gateways.account" defaultMessage="Cuenta vinculada" />
              </Text>
              <Text component="dd" size="sm" fw={600} m={0} data-field="account_name" style={{ overflowWrap: 'anywhere' }}>
                {connection.account_name}
                {!connection.live_mode && (
                  <Badge ml="xs" size="sm" color="gray" variant="light">
                    <FormattedMessage id="gateways.testAccount" defaultMessage="Cuenta de prueba" />
                  </Badge>
                )}
              </Text>
            </>
          )}
        </Box>
      )}
      {needsReconnection && (
        <Alert color="orange" variant="light" role="note" title={<FormattedMessage id="gateways.reconnectTitle" defaultMessage="La conexión dejó de funcionar" />}>
          <FormattedMessage
            id="gateways.reconnectBody"
            defaultMessage="{gateway} ya no acepta nuestra autorización. Vuelve a conectar la cuenta; mientras tanto, las donaciones mensuales quedan en espera."
            values={{ gateway: info.name }}
          />
        </Alert>
      )}
      <Group gap="sm" wrap="wrap">
        {!connection && connect(<FormattedMessage id="gateways.select" defaultMessage="Seleccionar" />)}
        {needsReconnection && connect(<FormattedMessage id="gateways.reconnect" defaultMessage="Reconectar" />)}
        {connection && (
          <Button variant="outline" onClick={onDelete} aria-label={intl.formatMessage({ id: 'gateways.deleteLabel', defaultMessage: 'Eliminar {gateway}' }, { gateway: info.name })}>
            <FormattedMessage id="gateways.delete" defaultMessage="Eliminar" />
          </Button>
        )}
      </Group>
    </GatewayItem>
  );
}
