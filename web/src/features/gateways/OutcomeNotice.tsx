import { Alert } from '@mantine/core';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import type { Outcome } from './api';
import { gatewayName } from './catalogue';

// The codes the OAuth callback sends back in ?error= (GW.md), each explained in the reader's language.
const errors = defineMessages({
  'gateway.oauth_denied': { id: 'gateway.oauth_denied', defaultMessage: 'No autorizaste la conexión, así que la pasarela no quedó conectada. Puedes intentarlo de nuevo cuando quieras.' },
  'gateway.oauth_state_invalid': { id: 'gateway.oauth_state_invalid', defaultMessage: 'La solicitud de conexión venció o ya se usó. Vuelve a seleccionar la pasarela para empezar de nuevo.' },
  'gateway.oauth_invalid_grant': { id: 'gateway.oauth_invalid_grant', defaultMessage: 'La pasarela no aceptó la autorización porque venció o ya se usó. Vuelve a intentarlo.' },
  'gateway.account_country_mismatch': { id: 'gateway.account_country_mismatch', defaultMessage: 'La cuenta que autorizaste es de otro país. Conecta una cuenta del mismo país que tu organización.' },
  'gateway.unavailable': { id: 'gateway.unavailable', defaultMessage: 'No pudimos comunicarnos con la pasarela. Inténtalo de nuevo en unos minutos.' },
});
const { fallback } = defineMessages({ fallback: { id: 'gateways.error.generic', defaultMessage: 'No pudimos conectar la pasarela. Inténtalo de nuevo.' } });

/** What came back from connecting a gateway: a success notice, or why nothing was connected. */
export function OutcomeNotice({ outcome, onClose }: { outcome: Outcome; onClose: () => void }) {
  const intl = useIntl();
  const closeLabel = intl.formatMessage({ id: 'modal.close', defaultMessage: 'Cerrar' });
  if (outcome.error) {
    const message = Object.hasOwn(errors, outcome.error) ? errors[outcome.error as keyof typeof errors] : fallback;
    return (
      <Alert color="red" variant="light" role="alert" withCloseButton closeButtonLabel={closeLabel} onClose={onClose} data-outcome="error" data-code={outcome.error}
        title={<FormattedMessage id="gateways.error.title" defaultMessage="La pasarela no se conectó" />}>
        {intl.formatMessage(message)}
      </Alert>
    );
  }
  if (outcome.connected) {
    return (
      <Alert color="green" variant="light" role="status" withCloseButton closeButtonLabel={closeLabel} onClose={onClose} data-outcome="connected"
        title={<FormattedMessage id="gateways.connected.title" defaultMessage="¡{gateway} quedó conectada!" values={{ gateway: gatewayName(outcome.connected) }} />}>
        <FormattedMessage id="gateways.connected.body" defaultMessage="Tus campañas ya pueden recibir donaciones a través de tu cuenta." />
      </Alert>
    );
  }
  return null;
}
