import { Alert, Card, Group, Loader, Radio, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { ApiError, errorText } from '../../api/client';
import { FormModal } from '../../components/FormModal';
import { GenericModal } from '../../components/GenericModal';
import { Button, StatusBadge, type BadgeColor } from '../../components/variants';
import { brandName } from '../../donate/lib/brand';
import { paymentMethodPayload, tokenizeCard } from '../donations/card';
import { CardDialog, EditDonationDialog } from '../donations/dialogs';
import { ReceiptLink, YearSummaries, receiptYears } from '../donations/receipts';
import type { Donor } from '../donations/api';
import { CANCEL_REASONS, portal, type PortalDonation } from './api';

const donationsKey = ['portal', 'donations'] as const;

/**
 * The donor portal (/donor/{slug}): a donor asks for a link by e-mail; the link opens a session (the token is posted,
 * then dropped from the address) in which they see their donations in the campaign's organisation and change them.
 */
export function PortalPage({ slug, token, onTokenUsed }: { slug: string; token?: string; onTokenUsed: () => void }) {
  const [opening, setOpening] = useState(Boolean(token));
  const [linkError, setLinkError] = useState<string>();
  const qc = useQueryClient();
  const used = useRef<string>(undefined);
  useEffect(() => {
    // A link works once: never post it twice (StrictMode runs effects twice in development).
    if (!token || used.current === token) return;
    used.current = token;
    portal.open(token)
      .then(() => qc.invalidateQueries({ queryKey: donationsKey }))
      .catch((e) => setLinkError(errorText(e)))
      .finally(() => { setOpening(false); onTokenUsed(); });
  }, [token, qc, onTokenUsed]);
  const list = useQuery({ queryKey: donationsKey, queryFn: portal.list, enabled: !opening, retry: false });

  if (opening || list.isPending) return <Group justify="center" py="xl"><Loader aria-label="…" /></Group>;
  const signedOut = list.error instanceof ApiError && list.error.status === 401;
  return (
    <Stack gap="lg" maw={760} mx="auto">
      <Title order={1}><FormattedMessage id="portal.title" defaultMessage="Mis donaciones" /></Title>
      {linkError && <Alert color="red" variant="light" role="alert">{linkError}</Alert>}
      {signedOut || list.error ? (
        <RequestLink slug={slug} />
      ) : (
        <>
          {list.data.donations.length === 0 && <Text c="dimmed"><FormattedMessage id="portal.empty" defaultMessage="No encontramos donaciones." /></Text>}
          {list.data.donations.map((d) => <DonationCard key={d.uuid} donation={d} />)}
          <YearSummaries years={receiptYears(list.data.donations.flatMap((d) => d.charges))} href={portal.summaryUrl} />
          <Group justify="flex-end">
            <Button variant="ghost" onClick={() => void portal.close().then(() => qc.invalidateQueries({ queryKey: donationsKey }))}>
              <FormattedMessage id="portal.signOut" defaultMessage="Salir" />
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

/** Asks for a link: the answer is the same whether or not the address is a donor's. */
function RequestLink({ slug }: { slug: string }) {
  const intl = useIntl();
  const [email, setEmail] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [error, setError] = useState<string>();
  async function send() {
    setState('sending');
    setError(undefined);
    try {
      await portal.requestLink(slug, email);
      setState('sent');
    } catch (e) {
      setError(errorText(e));
      setState('idle');
    }
  }
  if (state === 'sent') {
    return (
      <Alert color="green" variant="light" role="status">
        <FormattedMessage id="portal.linkSent" defaultMessage="Si ese e-mail tiene donaciones en esta organización, te enviamos un enlace para entrar. Vence en 30 minutos; revisa también el correo no deseado." />
      </Alert>
    );
  }
  return (
    <Card withBorder padding="lg" radius="md" component="form" onSubmit={(e) => { e.preventDefault(); void send(); }} noValidate>
      <Stack gap="md">
        <Text><FormattedMessage id="portal.askIntro" defaultMessage="Escribe el e-mail con el que donaste y te enviaremos un enlace para ver y cambiar tus donaciones." /></Text>
        <TextInput type="email" autoComplete="email" required label={intl.formatMessage({ id: 'portal.email', defaultMessage: 'E-mail' })}
          value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={error} />
        <Group justify="flex-end">
          <Button type="submit" loading={state === 'sending'}><FormattedMessage id="portal.sendLink" defaultMessage="Enviarme el enlace" /></Button>
        </Group>
      </Stack>
    </Card>
  );
}

const statusColor: Record<string, BadgeColor> = { active: 'green', paused: 'purple', discarded: 'red', pending: 'blue' };

function statusLabel(intl: IntlShape, status: string) {
  switch (status) {
    case 'active': return intl.formatMessage({ id: 'portal.status.active', defaultMessage: 'Activa' });
    case 'paused': return intl.formatMessage({ id: 'portal.status.paused', defaultMessage: 'En pausa' });
    case 'discarded': return intl.formatMessage({ id: 'portal.status.discarded', defaultMessage: 'Cancelada' });
    default: return intl.formatMessage({ id: 'portal.status.pending', defaultMessage: 'Pendiente' });
  }
}

function chargeStatus(intl: IntlShape, status: string) {
  switch (status) {
    case 'approved': return intl.formatMessage({ id: 'portal.charge.approved', defaultMessage: 'Cobrado' });
    case 'rejected': return intl.formatMessage({ id: 'portal.charge.rejected', defaultMessage: 'Rechazado' });
    case 'planned': return intl.formatMessage({ id: 'portal.charge.planned', defaultMessage: 'Programado' });
    default: return intl.formatMessage({ id: 'portal.charge.inProcess', defaultMessage: 'En proceso' });
  }
}

type Dialog = 'card' | 'edit' | 'pause' | 'cancel' | 'cancelReason' | null;

function DonationCard({ donation }: { donation: PortalDonation }) {
  const intl = useIntl();
  const qc = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<string>();
  // The card form and the limits need the donation's detail (its gateway checkout).
  const detail = useQuery({ queryKey: ['portal', 'donation', donation.uuid], queryFn: () => portal.get(donation.uuid), enabled: dialog === 'card' || dialog === 'edit' });
  const d = donation;
  const can = (a: string) => d.actions.includes(a);
  const close = () => setDialog(null);
  async function run(change: () => Promise<PortalDonation>, done: string) {
    setError(undefined);
    try {
      await change();
      setNotice(done);
      await qc.invalidateQueries({ queryKey: donationsKey });
    } catch (e) {
      setError(errorText(e));
      throw e;
    }
  }
  const saved = intl.formatMessage({ id: 'portal.saved', defaultMessage: 'Listo: te enviamos la confirmación por e-mail.' });
  const day = d.collect_last_day ? intl.formatMessage({ id: 'portal.lastDay', defaultMessage: 'el último día del mes' }) : String(d.collect_day ?? '');
  return (
    <Card withBorder padding="lg" radius="md" data-donation={d.uuid}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h4">{d.campaign}</Title>
          <StatusBadge color={statusColor[d.status] ?? 'blue'}>{statusLabel(intl, d.status)}</StatusBadge>
        </Group>
        <Text fw={700} size="lg">
          {d.frequency === 'monthly'
            ? intl.formatMessage({ id: 'portal.perMonth', defaultMessage: '{amount} por mes' }, { amount: d.amount.formatted })
            : intl.formatMessage({ id: 'portal.once', defaultMessage: '{amount}, por única vez' }, { amount: d.amount.formatted })}
        </Text>
        {d.frequency === 'monthly' && d.status !== 'discarded' && (
          <Text size="sm" c="dimmed">
            <FormattedMessage id="portal.collectDay" defaultMessage="Día de cobro: {day}" values={{ day }} />
            {d.next_charge_date && d.status === 'active' && <> · <FormattedMessage id="portal.nextCharge" defaultMessage="próximo cobro: {date}" values={{ date: intl.formatDate(d.next_charge_date, { dateStyle: 'medium', timeZone: 'UTC' }) }} /></>}
          </Text>
        )}
        {d.status === 'paused' && (
          <Text size="sm">
            {d.resume_on
              ? <FormattedMessage id="portal.pausedUntil" defaultMessage="En pausa hasta el {date}; luego se reanuda sola." values={{ date: intl.formatDate(d.resume_on, { dateStyle: 'long', timeZone: 'UTC' }) }} />
              : <FormattedMessage id="portal.pausedBecause" defaultMessage="En pausa: {reason}." values={{ reason: d.paused_label ?? '' }} />}
          </Text>
        )}
        {d.card && (
          <Text size="sm"><FormattedMessage id="portal.card" defaultMessage="Tarjeta {brand} terminada en {last4}, vence {expiry}" values={{ brand: brandName(d.card.brand), last4: d.card.last_four, expiry: d.card.expiry }} /></Text>
        )}
        {notice && <Alert color="green" variant="light" role="status">{notice}</Alert>}
        {error && !dialog && <Alert color="red" variant="light" role="alert">{error}</Alert>}
        {d.actions.length > 0 && (
          <Group gap="xs" wrap="wrap">
            {can('change_card') && <Button variant="primary" size="sm" onClick={() => setDialog('card')}><FormattedMessage id="portal.changeCard" defaultMessage="Cambiar tarjeta" /></Button>}
            {can('change_amount') && <Button variant="outline" size="sm" onClick={() => setDialog('edit')}><FormattedMessage id="portal.changeAmount" defaultMessage="Cambiar monto o día" /></Button>}
            {can('pause') && <Button variant="outline" size="sm" onClick={() => setDialog('pause')}><FormattedMessage id="portal.pause" defaultMessage="Pausar" /></Button>}
            {can('resume') && <Button variant="outline" size="sm" onClick={() => void run(() => portal.resume(d.uuid), saved).catch(() => {})}><FormattedMessage id="portal.resume" defaultMessage="Reanudar ahora" /></Button>}
            {can('cancel') && <Button variant="ghost" size="sm" onClick={() => setDialog('cancel')}><FormattedMessage id="portal.cancel" defaultMessage="Cancelar donación" /></Button>}
          </Group>
        )}
        {d.charges.length > 0 && (
          <Table.ScrollContainer minWidth={520}>
            <Table striped aria-label={intl.formatMessage({ id: 'portal.charges', defaultMessage: 'Cobros' })}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th><FormattedMessage id="portal.charge.date" defaultMessage="Fecha" /></Table.Th>
                  <Table.Th><FormattedMessage id="portal.charge.amount" defaultMessage="Monto" /></Table.Th>
                  <Table.Th><FormattedMessage id="portal.charge.status" defaultMessage="Estado" /></Table.Th>
                  <Table.Th><FormattedMessage id="portal.charge.receipt" defaultMessage="Recibo" /></Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.charges.map((c, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>{intl.formatDate(c.date, { dateStyle: 'medium' })}</Table.Td>
                    <Table.Td>{c.amount.formatted}</Table.Td>
                    <Table.Td>{chargeStatus(intl, c.status)}{c.decline ? ` · ${c.decline}` : ''}</Table.Td>
                    <Table.Td>{c.receipt ? <ReceiptLink href={portal.receiptUrl(c.receipt)} number={c.receipt} /> : '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>

      {dialog === 'card' && detail.data && (
        <CardDialog opened onClose={close} donor={{ uid_type: 'DNI', uid_number: '' } as Donor} rules={detail.data.gateway?.payment_methods}
          onConfirm={async (v) => {
            const gw = detail.data.gateway;
            if (!gw) throw new Error(intl.formatMessage({ id: 'portal.noGateway', defaultMessage: 'La organización no puede recibir tarjetas ahora.' }));
            const token = await tokenizeCard(v, gw);
            await run(() => portal.card(d.uuid, paymentMethodPayload(v, token, gw)), saved);
          }} />
      )}
      {dialog === 'edit' && detail.data && (
        <EditDonationDialog opened onClose={close} current={d.amount.decimal} currency={d.amount.currency} collectDay={d.collect_last_day ? null : d.collect_day}
          monthly onConfirm={(edit) => run(() => portal.edit(d.uuid, edit), saved)} />
      )}
      <PauseDialog opened={dialog === 'pause'} onClose={close} onConfirm={(months) => run(() => portal.pause(d.uuid, months), saved)} />
      <GenericModal opened={dialog === 'cancel'} onClose={close}
        title={<FormattedMessage id="portal.cancel.sureTitle" defaultMessage="¿Seguro que quieres cancelar?" />}
        subtitle={<FormattedMessage id="portal.cancel.sureBody" defaultMessage="Si necesitas un respiro, puedes pausar tu donación de 1 a 3 meses; se reanuda sola." />}>
        <Group justify="flex-end" gap="sm">
          <Button variant="outline" onClick={() => setDialog('cancelReason')}><FormattedMessage id="portal.cancel.continue" defaultMessage="Quiero cancelar" /></Button>
          {can('pause') && <Button onClick={() => setDialog('pause')}><FormattedMessage id="portal.cancel.pauseInstead" defaultMessage="Pausar en su lugar" /></Button>}
        </Group>
      </GenericModal>
      <CancelDialog opened={dialog === 'cancelReason'} onClose={close} onConfirm={(reason) => run(() => portal.cancel(d.uuid, reason), saved)} />
    </Card>
  );
}

function PauseDialog({ opened, onClose, onConfirm }: { opened: boolean; onClose: () => void; onConfirm: (months: number) => Promise<void> }) {
  const intl = useIntl();
  const [months, setMonths] = useState('1');
  return (
    <FormModal opened={opened} onClose={onClose}
      title={<FormattedMessage id="portal.pause.title" defaultMessage="Pausar mi donación" />}
      subtitle={<FormattedMessage id="portal.pause.subtitle" defaultMessage="No se cobrará durante la pausa y luego se reanuda sola." />}
      confirm={<FormattedMessage id="portal.pause.confirm" defaultMessage="Pausar" />}
      submit={async () => { await onConfirm(Number(months)); return true; }}>
      <SegmentedControl fullWidth value={months} onChange={setMonths} aria-label={intl.formatMessage({ id: 'portal.pause.months', defaultMessage: 'Duración de la pausa' })}
        data={[1, 2, 3].map((n) => ({ value: String(n), label: intl.formatMessage({ id: 'portal.pause.monthsN', defaultMessage: '{n, plural, one {# mes} other {# meses}}' }, { n }) }))} />
    </FormModal>
  );
}

function CancelDialog({ opened, onClose, onConfirm }: { opened: boolean; onClose: () => void; onConfirm: (reason: string) => Promise<void> }) {
  const intl = useIntl();
  const [reason, setReason] = useState<string>(CANCEL_REASONS[0]);
  const label = (r: string) => {
    switch (r) {
      case 'donor_request': return intl.formatMessage({ id: 'portal.reason.donor_request', defaultMessage: 'Ya no quiero donar' });
      case 'financial_reasons': return intl.formatMessage({ id: 'portal.reason.financial_reasons', defaultMessage: 'Por motivos económicos' });
      case 'payment_problems': return intl.formatMessage({ id: 'portal.reason.payment_problems', defaultMessage: 'Problemas con el pago' });
      default: return intl.formatMessage({ id: 'portal.reason.other', defaultMessage: 'Otro motivo' });
    }
  };
  return (
    <FormModal opened={opened} onClose={onClose} destructive
      title={<FormattedMessage id="portal.cancel.title" defaultMessage="Cancelar mi donación" />}
      subtitle={<FormattedMessage id="portal.cancel.subtitle" defaultMessage="No se harán más cobros. Para volver a donar, usa el formulario de la campaña." />}
      confirm={<FormattedMessage id="portal.cancel.confirm" defaultMessage="Cancelar donación" />}
      submit={async () => { await onConfirm(reason); return true; }}>
      <Radio.Group value={reason} onChange={setReason} label={intl.formatMessage({ id: 'portal.cancel.reason', defaultMessage: 'Motivo' })}>
        <Stack gap="xs" mt="xs">
          {CANCEL_REASONS.map((r) => <Radio key={r} value={r} label={label(r)} />)}
        </Stack>
      </Radio.Group>
    </FormModal>
  );
}
