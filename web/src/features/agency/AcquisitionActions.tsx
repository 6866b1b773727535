import { Group } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { errorText } from '../../api/client';
import { DiscardDialog } from '../../components/DiscardDialog';
import { showToast } from '../../components/Toasts';
import { Button } from '../../components/variants';
import { paymentMethodPayload, tokenizeCard } from '../donations/card';
import { CardDialog, ConfirmDialog, EditDonationDialog, PauseDialog } from '../donations/dialogs';
import { agencyReasonsQuery, correctAmount, manageAcquisition, voidAcquisition, type Acquisition, type AgencyMe } from './api';

type Dialog = 'amount' | 'void' | 'card' | 'pause' | 'restore' | 'discard';

const buttons = defineMessages({
  amount: { id: 'agency.changeAmount', defaultMessage: 'Cambiar monto' },
  void: { id: 'agency.void', defaultMessage: 'Anular' },
  card: { id: 'agency.changeCard', defaultMessage: 'Cambiar tarjeta' },
  pause: { id: 'agency.pause', defaultMessage: 'Pausar' },
  restore: { id: 'agency.restore', defaultMessage: 'Reanudar' },
  discard: { id: 'agency.discard', defaultMessage: 'Dar de baja' },
});

/** What one sign-up's row may do, as the manage area's donation detail decides it (api/donation actions). */
function actionsFor(a: Acquisition, me: AgencyMe): Dialog[] {
  if (a.status === 'pending') return ['amount', 'void'];
  if (a.status !== 'synced' || !me.permissions.includes('manage_donors') || a.donation_status === 'discarded') return [];
  const out: Dialog[] = [];
  const monthly = a.recurrence === 1 && (a.donation_status === 'active' || a.donation_status === 'paused');
  if (monthly) out.push('amount', 'card', a.donation_status === 'active' ? 'pause' : 'restore');
  out.push('discard');
  return out;
}

/**
 * A sign-up's buttons and dialogs in the work area: while it waits for its sync, correct or void it; once it is the
 * organisation's donation and the agent holds the management grant, the manage area's changes (amount, card,
 * pause, restore, discard) through the agency's routes. The server decides each (Keto); its refusal, in the user's
 * language, stays in the dialog.
 */
export function AcquisitionActions({ a, me }: { a: Acquisition; me: AgencyMe }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const actions = actionsFor(a, me);
  const manages = a.status === 'synced' && actions.length > 0;
  const { data: reasons } = useQuery({ ...agencyReasonsQuery(intl.locale), enabled: manages });
  const close = () => setDialog(null);
  const run = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } finally {
      await queryClient.invalidateQueries({ queryKey: ['agency', 'acquisitions'] });
    }
  };
  const discardLabels = reasons?.discard_reasons.map((r) => r.label) ?? [];
  return (
    <>
      {actions.length > 0 && (
        <Group gap="xs" mt="xs">
          {actions.map((k) => (
            <Button key={k} size="sm" variant={k === 'amount' ? 'outline' : 'ghost'} onClick={() => setDialog(k)}>
              {intl.formatMessage(buttons[k])}
            </Button>
          ))}
        </Group>
      )}
      {dialog === 'amount' && (
        <EditDonationDialog opened onClose={close} current={a.amount.decimal} currency={a.amount.currency} monthly={false} collectDay={null}
          onConfirm={async (edit) => { if (edit.amount) await run(() => correctAmount(a.uuid, edit.amount!)); }} />
      )}
      <ConfirmDialog opened={dialog === 'void'} onClose={close} destructive
        title={<FormattedMessage id="agency.void.title" defaultMessage="Anular el alta" />}
        body={<FormattedMessage id="agency.void.body" defaultMessage="El alta de {name} no pasará a la organización ni se cobrará." values={{ name: a.donor_name }} />}
        confirm={<FormattedMessage id="agency.void" defaultMessage="Anular" />}
        onConfirm={() => run(() => voidAcquisition(a.uuid))} />
      <CardDialog opened={dialog === 'card'} onClose={close} donor={{ uid_type: 'DNI', uid_number: '' }}
        onConfirm={async (v) => {
          const token = await tokenizeCard(v, me.gateway);
          await run(() => manageAcquisition.paymentMethod(a.uuid, paymentMethodPayload(v, token, me.gateway)));
        }} />
      {reasons && (
        <>
          <PauseDialog opened={dialog === 'pause'} onClose={close} reasons={reasons.pause_reasons} defaultReason={reasons.default_pause_reason}
            onConfirm={(reason) => run(() => manageAcquisition.pause(a.uuid, reason))} />
          <DiscardDialog opened={dialog === 'discard'} onClose={close} reasons={discardLabels}
            onConfirm={(picked) =>
              run(() => manageAcquisition.discard(a.uuid, reasons.discard_reasons.find((r) => r.label === picked)?.code ?? picked)).catch((e: unknown) => {
                showToast({ type: 'fail', message: errorText(e) }); // the dialog's own alert is generic
                throw e;
              })
            } />
        </>
      )}
      <ConfirmDialog opened={dialog === 'restore'} onClose={close}
        title={<FormattedMessage id="donation.restore.title" defaultMessage="Reanudar donación" />}
        body={<FormattedMessage id="donation.restore.body" defaultMessage="La donación volverá a cobrarse en el próximo período." />}
        confirm={<FormattedMessage id="donation.action.restore" defaultMessage="Reanudar" />}
        onConfirm={() => run(() => manageAcquisition.restore(a.uuid))} />
    </>
  );
}
