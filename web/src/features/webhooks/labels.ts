import { defineMessages, type IntlShape } from 'react-intl';
import { nameOf } from '../../i18n/nameOf';

/** The words for event types and statuses the server sends as codes. */
const messages = defineMessages({
  'donation.created': { id: 'webhooks.event.donationCreated', defaultMessage: 'Donación creada' },
  'donation.updated': { id: 'webhooks.event.donationUpdated', defaultMessage: 'Donación modificada' },
  'donation.cancelled': { id: 'webhooks.event.donationCancelled', defaultMessage: 'Donación cancelada' },
  'charge.approved': { id: 'webhooks.event.chargeApproved', defaultMessage: 'Cobro aprobado' },
  'charge.declined': { id: 'webhooks.event.chargeDeclined', defaultMessage: 'Cobro rechazado' },
  'charge.refunded': { id: 'webhooks.event.chargeRefunded', defaultMessage: 'Cobro devuelto' },
  'charge.charged_back': { id: 'webhooks.event.chargeChargedBack', defaultMessage: 'Contracargo' },
  active: { id: 'webhooks.status.active', defaultMessage: 'Activo' },
  disabled: { id: 'webhooks.status.disabled', defaultMessage: 'Desactivado' },
  pending: { id: 'webhooks.status.pending', defaultMessage: 'Reintentando' },
  delivered: { id: 'webhooks.status.delivered', defaultMessage: 'Entregado' },
  failed: { id: 'webhooks.status.failed', defaultMessage: 'Fallido' },
});

export const label = (intl: IntlShape, code: string) => nameOf(intl, messages, code);
