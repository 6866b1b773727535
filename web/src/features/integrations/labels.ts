import { defineMessages, type IntlShape } from 'react-intl';
import { nameOf } from '../../i18n/nameOf';

/** Names of the classes, CRM objects, sync rules, statuses and log outcomes the setup shows. */
export const labels = defineMessages({
  donor: { id: 'crm.class.donor', defaultMessage: 'Donante' },
  donation: { id: 'crm.class.donation', defaultMessage: 'Donación' },
  campaign: { id: 'crm.class.campaign', defaultMessage: 'Campaña' },
  contact: { id: 'crm.object.contact', defaultMessage: 'Contacto' },
  opportunity: { id: 'crm.object.opportunity', defaultMessage: 'Oportunidad' },
  recurring_donation: { id: 'crm.object.recurringDonation', defaultMessage: 'Donación recurrente' },
  campaignObject: { id: 'crm.object.campaign', defaultMessage: 'Campaña' },
  always_override: { id: 'crm.rule.alwaysOverride', defaultMessage: 'Siempre sobrescribir' },
  override_if_empty: { id: 'crm.rule.overrideIfEmpty', defaultMessage: 'Sobrescribir si está vacío' },
  active: { id: 'crm.status.active', defaultMessage: 'Sincronizando' },
  paused: { id: 'crm.status.paused', defaultMessage: 'Pausada' },
  needs_attention: { id: 'crm.status.needsAttention', defaultMessage: 'Requiere atención' },
  ok: { id: 'crm.outcome.ok', defaultMessage: 'Correcta' },
  partial: { id: 'crm.outcome.partial', defaultMessage: 'Parcial' },
  failed: { id: 'crm.outcome.failed', defaultMessage: 'Fallida' },
  limited: { id: 'crm.outcome.limited', defaultMessage: 'Sin cupo diario' },
  session_expired: { id: 'crm.outcome.sessionExpired', defaultMessage: 'Sesión vencida (renovada)' },
  token: { id: 'crm.operation.token', defaultMessage: 'Inicio de sesión' },
  describe: { id: 'crm.operation.describe', defaultMessage: 'Lectura de campos' },
  upsert: { id: 'crm.operation.upsert', defaultMessage: 'Envío' },
  query: { id: 'crm.operation.query', defaultMessage: 'Consulta' },
  limits: { id: 'crm.operation.limits', defaultMessage: 'Consulta de cupo' },
});

/** Our attributes' names, by class and attribute (a donation's form answers are named by their field's title). */
export const attributeLabels = defineMessages({
  'donor.email': { id: 'crm.attr.donor.email', defaultMessage: 'Correo electrónico' },
  'donor.first_name': { id: 'crm.attr.donor.firstName', defaultMessage: 'Nombre' },
  'donor.last_name': { id: 'crm.attr.donor.lastName', defaultMessage: 'Apellido' },
  'donor.full_name': { id: 'crm.attr.donor.fullName', defaultMessage: 'Nombre completo' },
  'donor.phone': { id: 'crm.attr.donor.phone', defaultMessage: 'Teléfono' },
  'donor.cellphone': { id: 'crm.attr.donor.cellphone', defaultMessage: 'Celular' },
  'donor.uid_type': { id: 'crm.attr.donor.uidType', defaultMessage: 'Tipo de documento' },
  'donor.uid_number': { id: 'crm.attr.donor.uidNumber', defaultMessage: 'Número de documento' },
  'donor.street': { id: 'crm.attr.donor.street', defaultMessage: 'Dirección' },
  'donor.city': { id: 'crm.attr.donor.city', defaultMessage: 'Ciudad' },
  'donor.state': { id: 'crm.attr.donor.state', defaultMessage: 'Provincia o estado' },
  'donor.country': { id: 'crm.attr.donor.country', defaultMessage: 'País' },
  'donor.created_at': { id: 'crm.attr.donor.createdAt', defaultMessage: 'Fecha de alta' },
  'donation.amount': { id: 'crm.attr.donation.amount', defaultMessage: 'Monto' },
  'donation.currency': { id: 'crm.attr.donation.currency', defaultMessage: 'Moneda' },
  'donation.status': { id: 'crm.attr.donation.status', defaultMessage: 'Estado' },
  'donation.recurrence': { id: 'crm.attr.donation.recurrence', defaultMessage: 'Frecuencia' },
  'donation.collect_day': { id: 'crm.attr.donation.collectDay', defaultMessage: 'Día de cobro' },
  'donation.created_at': { id: 'crm.attr.donation.createdAt', defaultMessage: 'Fecha de la donación' },
  'donation.campaign_title': { id: 'crm.attr.donation.campaignTitle', defaultMessage: 'Campaña' },
  'donation.charges_approved': { id: 'crm.attr.donation.chargesApproved', defaultMessage: 'Cobros aprobados' },
  'donation.total_collected': { id: 'crm.attr.donation.totalCollected', defaultMessage: 'Total recaudado' },
  'donation.last_charge_status': { id: 'crm.attr.donation.lastChargeStatus', defaultMessage: 'Estado del último cobro' },
  'donation.last_charge_date': { id: 'crm.attr.donation.lastChargeDate', defaultMessage: 'Fecha del último cobro' },
  'donation.paused_reason': { id: 'crm.attr.donation.pausedReason', defaultMessage: 'Motivo de pausa' },
  'donation.title': { id: 'crm.attr.donation.title', defaultMessage: 'Título (campaña y monto)' },
  'campaign.title': { id: 'crm.attr.campaign.title', defaultMessage: 'Título' },
  'campaign.description': { id: 'crm.attr.campaign.description', defaultMessage: 'Descripción' },
  'campaign.type': { id: 'crm.attr.campaign.type', defaultMessage: 'Tipo' },
  'campaign.channel': { id: 'crm.attr.campaign.channel', defaultMessage: 'Canal' },
  'campaign.published': { id: 'crm.attr.campaign.published', defaultMessage: 'Publicada' },
  'campaign.created_at': { id: 'crm.attr.campaign.createdAt', defaultMessage: 'Fecha de creación' },
});

const formPrefix = 'form:';

/** An attribute's name in the reader's language. */
export function attributeLabel(intl: IntlShape, className: string, attribute: string) {
  if (attribute.startsWith(formPrefix)) {
    return intl.formatMessage({ id: 'crm.attr.form', defaultMessage: 'Formulario: {title}' }, { title: attribute.slice(formPrefix.length) });
  }
  const m = attributeLabels[`${className}.${attribute}` as keyof typeof attributeLabels];
  return m ? intl.formatMessage(m) : attribute;
}

/** A class's, object's, rule's, status's or outcome's name (the object "campaign" is named apart from the class). */
export function label(intl: IntlShape, key: string, object = false) {
  return nameOf(intl, labels, object && key === 'campaign' ? 'campaignObject' : key);
}
