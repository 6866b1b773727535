import { Alert, Anchor, Box, Center, Group, Image, Loader, Menu, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ApiError } from '../../api/client';
import { GenericModal } from '../../components/GenericModal';
import { Button } from '../../components/variants';
import { allowedByPlan, subscriptionQuery } from '../subscription/api';
import { fetchQr, type Campaign, type QrCode } from './api';

const MENU_LEAVE_MS = 200;

export function CrownLockHint() {
  return (
    <Group gap={6} wrap="nowrap" data-testid="qr-locked">
      <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="#b7791f" strokeWidth="2" aria-hidden>
        <path d="M3 8l4 4 5-7 5 7 4-4-2 11H5z" />
      </svg>
      <Text size="sm">
        <FormattedMessage id="campaigns.qr.locked" defaultMessage="La descarga del código QR no está incluida en tu plan." />{' '}
        <Anchor href="/pricing" target="_blank" rel="noopener">
          <FormattedMessage id="campaigns.qr.seePlans" defaultMessage="Ver planes" />
        </Anchor>
      </Text>
    </Group>
  );
}

type QrState = { kind: 'loading' } | { kind: 'loaded'; qr: QrCode } | { kind: 'error'; message: string } | { kind: 'locked' };

/** §4: closed → open (loading → loaded | error); the download menu toggles and closes 200 ms after the pointer leaves; a download closes the dialog. */
export function QrDialog({ campaign, onClose }: { campaign: Campaign | null; onClose: () => void }) {
  const intl = useIntl();
  const [state, setState] = useState<QrState>({ kind: 'loading' });
  const [menuOpen, setMenuOpen] = useState(false);
  const leaveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { data: subscription } = useQuery(subscriptionQuery());
  const lockedByPlan = subscription !== undefined && !allowedByPlan(subscription);

  useEffect(() => {
    if (!campaign) return;
    if (lockedByPlan) return setState({ kind: 'locked' }); // §6: no download without a plan; the server refuses it too
    const ctrl = new AbortController();
    setState({ kind: 'loading' });
    fetchQr(campaign.uuid, ctrl.signal)
      .then((qr) => setState({ kind: 'loaded', qr }))
      .catch((e: unknown) => {
        if (ctrl.signal.aborted) return;
        if (e instanceof ApiError && e.code.includes('plan_required')) return setState({ kind: 'locked' });
        setState({
          kind: 'error',
          message: e instanceof ApiError && e.message ? e.message : intl.formatMessage({ id: 'campaigns.qr.download_error', defaultMessage: 'Error al descargar el código QR, inténtalo de nuevo' }),
        });
      });
    return () => ctrl.abort();
  }, [campaign, intl, lockedByPlan]);
  useEffect(() => () => clearTimeout(leaveTimer.current), []);

  function download(kind: 'svg' | 'png') {
    if (state.kind !== 'loaded') return;
    const { qr } = state;
    const a = document.createElement('a');
    a.href = `data:${kind === 'svg' ? 'image/svg+xml' : 'image/png'};base64,${kind === 'svg' ? qr.base64_svg : qr.base64_png}`;
    a.download = `${qr.filename || 'qr'}.${kind}`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setMenuOpen(false);
    onClose();
  }

  return (
    <GenericModal
      opened={campaign !== null}
      onClose={onClose}
      title={<FormattedMessage id="campaigns.qr.title" defaultMessage="Código QR de la campaña" />}
      subtitle={campaign?.title}
    >
      <Stack gap="md">
        {campaign?.description && <Text size="sm" c="dimmed" lineClamp={3}>{campaign.description}</Text>}
        <Text size="sm">
          <FormattedMessage id="campaigns.qr.name" defaultMessage="Campaña: {name}" values={{ name: <b>{campaign?.slug}</b> }} />
        </Text>
        {state.kind === 'loading' && (
          <Center h={240} role="status" aria-label={intl.formatMessage({ id: 'campaigns.qr.loading', defaultMessage: 'Generando el código QR…' })}>
            <Loader />
          </Center>
        )}
        {state.kind === 'error' && <Alert color="red" role="alert">{state.message}</Alert>}
        {state.kind === 'locked' && <CrownLockHint />}
        {state.kind === 'loaded' && (
          <>
            <Box mx="auto" p="sm" bg="white" style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 12 }}>
              <Image src={`data:image/svg+xml;base64,${state.qr.base64_svg}`} w={220} h={220} alt={intl.formatMessage({ id: 'campaigns.qr.preview', defaultMessage: 'Vista previa del código QR' })} />
            </Box>
            <Group justify="center">
              <Menu opened={menuOpen} onChange={setMenuOpen} position="bottom" withinPortal={false}>
                <Menu.Target>
                  <div
                    onMouseLeave={() => { leaveTimer.current = setTimeout(() => setMenuOpen(false), MENU_LEAVE_MS); }}
                    onMouseEnter={() => clearTimeout(leaveTimer.current)}
                  >
                    <Button onClick={() => setMenuOpen((o) => !o)}>
                      <FormattedMessage id="campaigns.qr.download" defaultMessage="Descargar" />
                    </Button>
                  </div>
                </Menu.Target>
                <Menu.Dropdown
                  onMouseLeave={() => { leaveTimer.current = setTimeout(() => setMenuOpen(false), MENU_LEAVE_MS); }}
                  onMouseEnter={() => clearTimeout(leaveTimer.current)}
                >
                  <Menu.Item onClick={() => download('svg')}>.svg</Menu.Item>
                  <Menu.Item onClick={() => download('png')}>.png</Menu.Item>
                </Menu.Dropdown>
              </Menu>
            </Group>
          </>
        )}
      </Stack>
    </GenericModal>
  );
}
