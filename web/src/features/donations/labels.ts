import type { IntlShape } from 'react-intl';
import type { BadgeColor } from '../../components/variants';

export function statusLabel(intl: IntlShape, status: string): string {
  switch (status) {
    case 'active': return intl.formatMessage({ id: 'donations.status.active', defaultMessage: 'Activa' });
    case 'paused': return intl.formatMessage({ id: 'donations.status.paused', defaultMessage: 'Pausada' });
    case 'discarded': return intl.formatMessage({ id: 'donations.status.discarded', defaultMessage: 'Dada de baja' });
    case 'pending': return intl.formatMessage({ id: 'donations.status.pending', defaultMessage: 'Pendiente' });
    case 'rejected': return intl.formatMessage({ id: 'donations.status.rejected', defaultMessage: 'Rechazada' });
    default: return status;
  }
}

export const statusColor = (status: string): BadgeColor =>
  status === 'active' ? 'green' : status === 'paused' ? 'blue' : status === 'discarded' || status === 'rejected' ? 'red' : 'purple';

export function frequencyLabel(intl: IntlShape, f: string): string {
  return f === 'monthly'
    ? intl.formatMessage({ id: 'donations.frequency.monthly', defaultMessage: 'Mensual' })
    : intl.formatMessage({ id: 'donations.frequency.one_time', defaultMessage: 'Única vez' });
}

export function txStatusLabel(intl: IntlShape, s: string): string {
  const m: Record<string, string> = {
    approved: intl.formatMessage({ id: 'tx.status.approved', defaultMessage: 'Aprobada' }),
    rejected: intl.formatMessage({ id: 'tx.status.rejected', defaultMessage: 'Rechazada' }),
    cancelled: intl.formatMessage({ id: 'tx.status.cancelled', defaultMessage: 'Cancelada' }),
    pending: intl.formatMessage({ id: 'tx.status.pending', defaultMessage: 'Pendiente' }),
    in_process: intl.formatMessage({ id: 'tx.status.in_process', defaultMessage: 'En proceso' }),
    in_mediation: intl.formatMessage({ id: 'tx.status.in_mediation', defaultMessage: 'En mediación' }),
    planned: intl.formatMessage({ id: 'tx.status.planned', defaultMessage: 'Planificada' }),
    refunded: intl.formatMessage({ id: 'tx.status.refunded', defaultMessage: 'Devuelta' }),
    charged_back: intl.formatMessage({ id: 'tx.status.charged_back', defaultMessage: 'Contracargo' }),
    non_existant: intl.formatMessage({ id: 'tx.status.non_existant', defaultMessage: 'Sin pago' }),
  };
  return m[s] ?? s;
}
export const txColor = (s: string): BadgeColor =>
  s === 'approved' ? 'green' : ['rejected', 'cancelled', 'charged_back'].includes(s) ? 'red' : s === 'refunded' ? 'purple' : 'blue';

export const fmtDate = (intl: IntlShape, iso: string | null | undefined) =>
  iso ? intl.formatDate(iso.length === 10 ? `${iso}T12:00:00` : iso, { day: '2-digit', month: 'short', year: 'numeric' }) : '—';
