import { Alert } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import type { AccountInfo } from './api';

/** The account state (spec §4): no documents, documents with errors, verifying (under 48 h), enabled. */
export function AccountStateBanner({ account }: { account: AccountInfo }) {
  switch (account.state) {
    case 'enabled':
      return (
        <Alert color="green" variant="light" data-account-state="enabled" title={<FormattedMessage id="account.state.enabled" defaultMessage="Cuenta habilitada" />}>
          <FormattedMessage id="account.state.enabledBody" defaultMessage="Verificamos tu organización: ya puedes publicar campañas y recibir donaciones." />
        </Alert>
      );
    case 'verifying':
      return (
        <Alert color="yellow" variant="light" data-account-state="verifying" title={<FormattedMessage id="account.state.verifying" defaultMessage="Cuenta en verificación" />}>
          {account.hours_left !== undefined ? (
            <FormattedMessage
              id="account.state.verifyingHours"
              defaultMessage="Estamos revisando tus documentos. Te responderemos en {hours, plural, one {# hora} other {# horas}} como máximo."
              values={{ hours: account.hours_left }}
            />
          ) : (
            <FormattedMessage id="account.state.verifyingBody" defaultMessage="Estamos revisando tus documentos; te responderemos en menos de 48 horas hábiles." />
          )}
        </Alert>
      );
    case 'documents_with_errors':
      return (
        <Alert color="red" variant="light" data-account-state="documents_with_errors" title={<FormattedMessage id="account.state.errors" defaultMessage="Documentos con observaciones" />}>
          <FormattedMessage id="account.state.errorsBody" defaultMessage="Revisa los documentos rechazados y vuelve a subirlos." />
        </Alert>
      );
    default:
      return (
        <Alert color="blue" variant="light" data-account-state="no_documents" title={<FormattedMessage id="account.state.noDocuments" defaultMessage="Faltan documentos" />}>
          <FormattedMessage id="account.state.noDocumentsBody" defaultMessage="Sube los documentos de tu organización para activar la cuenta." />
        </Alert>
      );
  }
}
