import { defineMessages, type IntlShape } from 'react-intl';
import type { BadgeColor } from '../../components/variants';
import { nameOf } from '../../i18n/nameOf';

const statusNames = defineMessages({
  active: { id: 'donations.status.active', defaultMessage: 'Activa' },
  paused: { id: 'donations.status.paused', defaultMessage: 'Pausada' },
  discarded: { id: 'donations.status.discarded', defaultMessage: 'Dada de baja' },
  pending: { id: 'donations.status.pending', defaultMessage: 'Pendiente' },
  rejected: { id: 'donations.status.rejected', defaultMessage: 'Rechazada' },
});

export const statusLabel = (intl: IntlShape, status: string): string => nameOf(intl, statusNames, status);

export const statusColor = (status: string): BadgeColor =>
  status === 'active' ? 'green' : status === 'paused' ? 'blue' : status === 'discarded' || status === 'rejected' ? 'red' : 'purple';

export function frequencyLabel(intl: IntlShape, f: string): string {
  return f === 'monthly'
    ? intl.formatMessage({ id: 'donations.frequency.monthly', defaultMessage: 'Mensual' })
    : intl.formatMessage({ id: 'donations.frequency.one_time', defaultMessage: 'Única vez' });
}

const txStatusNames = defineMessages({
  approved: { id: 'tx.status.approved', defaultMessage: 'Aprobada' },
  rejected: { id: 'tx.status.rejected', defaultMessage: 'Rechazada' },
  cancelled: { id: 'tx.status.cancelled', defaultMessage: 'Cancelada' },
  pending: { id: 'tx.status.pending', defaultMessage: 'Pendiente' },
  in_process: { id: 'tx.status.in_process', defaultMessage: 'En proceso' },
  in_mediation: { id: 'tx.status.in_mediation', defaultMessage: 'En mediación' },
  planned: { id: 'tx.status.planned', defaultMessage: 'Planificada' },
  refunded: { id: 'tx.status.refunded', defaultMessage: 'Devuelta' },
  charged_back: { id: 'tx.status.charged_back', defaultMessage: 'Contracargo' },
  non_existant: { id: 'tx.status.non_existant', defaultMessage: 'Sin pago' },
});

export const txStatusLabel = (intl: IntlShape, s: string): string => nameOf(intl, txStatusNames, s);

export const txColor = (s: string): BadgeColor =>
  s === 'approved' ? 'green' : ['rejected', 'cancelled', 'charged_back'].includes(s) ? 'red' : s === 'refunded' ? 'purple' : 'blue';

export const fmtDate = (intl: IntlShape, iso: string | null | undefined) =>
  iso ? intl.formatDate(iso.length === 10 ? `${iso}T12:00:00` : iso, { day: '2-digit', month: 'short', year: 'numeric' }) : '—';
