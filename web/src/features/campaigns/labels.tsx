import type { IntlShape } from 'react-intl';
import type { CampaignType } from './api';

export const typeName = (intl: IntlShape, t: string) => {
  switch (t as CampaignType) {
    case 'crowdfund': return intl.formatMessage({ id: 'campaigns.type.crowdfund', defaultMessage: 'Recaudación con meta' });
    case 'custom': return intl.formatMessage({ id: 'campaigns.type.custom', defaultMessage: 'Personalizada' });
    case 'fundraise': return intl.formatMessage({ id: 'campaigns.type.fundraise', defaultMessage: 'Donación mensual y única' });
    case 'promoted': return intl.formatMessage({ id: 'campaigns.type.promoted', defaultMessage: 'Promocionada' });
    case 'tickets': return intl.formatMessage({ id: 'campaigns.type.tickets', defaultMessage: 'Evento con entradas' });
    default: return t;
  }
};

export const typeDescription = (intl: IntlShape, t: CampaignType) => {
  switch (t) {
    case 'crowdfund': return intl.formatMessage({ id: 'campaigns.typeDesc.crowdfund', defaultMessage: 'Una meta de recaudación única, ideal para un proyecto o una emergencia.' });
    case 'custom': return intl.formatMessage({ id: 'campaigns.typeDesc.custom', defaultMessage: 'Un formulario a tu medida con los campos y montos que necesites.' });
    case 'fundraise': return intl.formatMessage({ id: 'campaigns.typeDesc.fundraise', defaultMessage: 'Donantes mensuales y aportes únicos para sostener tu causa en el tiempo.' });
    case 'promoted': return intl.formatMessage({ id: 'campaigns.typeDesc.promoted', defaultMessage: 'Para difundir en redes y anuncios, con seguimiento de píxeles y analítica.' });
    case 'tickets': return intl.formatMessage({ id: 'campaigns.typeDesc.tickets', defaultMessage: 'Vende entradas para un evento en línea o presencial.' });
  }
};

/** The campaign channels (§3): where its donors come from. */
export const CHANNELS = ['public', 'private', 'f2f', 'agents'] as const;

export const channelName = (intl: IntlShape, ch: string) => {
  switch (ch as (typeof CHANNELS)[number]) {
    case 'public': return intl.formatMessage({ id: 'campaigns.channel.public', defaultMessage: 'Pública (formulario abierto)' });
    case 'private': return intl.formatMessage({ id: 'campaigns.channel.private', defaultMessage: 'Privada (solo con el enlace)' });
    case 'f2f': return intl.formatMessage({ id: 'campaigns.channel.f2f', defaultMessage: 'Cara a cara (promotores en la calle)' });
    case 'agents': return intl.formatMessage({ id: 'campaigns.channel.agents', defaultMessage: 'Agentes (por teléfono)' });
    default: return ch;
  }
};
