import { NumberInput, PasswordInput, SimpleGrid, TextInput } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ApiForm } from '../../components/ApiForm';
import { useApiForm } from '../../components/useApiForm';
import type { CrmSetup, SetupFields } from './api';

/**
 * The connection's fields: where the CRM's login is, its connected app's client id and secret, the external id field
 * our records are matched by, and our own daily call cap. Editing, a blank secret keeps the stored one (never shown).
 */
export function ConnectionForm({ setup, onSave }: { setup?: CrmSetup; onSave: (fields: SetupFields) => Promise<unknown> }) {
  const intl = useIntl();
  const [name, setName] = useState(setup?.name ?? 'Salesforce');
  const [loginURL, setLoginURL] = useState(setup?.auth.login_url ?? 'https://login.salesforce.com');
  const [clientID, setClientID] = useState(setup?.auth.client_id ?? '');
  const [secret, setSecret] = useState('');
  const [externalID, setExternalID] = useState(setup?.external_id_field ?? 'Aporta_Id__c');
  const [limit, setLimit] = useState<number | string>(setup?.daily_call_limit ?? '');
  const form = useApiForm(async () => {
    const fields: SetupFields = { name, login_url: loginURL, client_id: clientID, external_id_field: externalID, daily_call_limit: limit === '' ? null : Number(limit) };
    if (secret !== '' || !setup) fields.client_secret = secret;
    await onSave(fields);
    setSecret('');
  });

  return (
    <ApiForm
      form={form}
      submit={setup ? <FormattedMessage id="crm.form.save" defaultMessage="Guardar conexión" /> : <FormattedMessage id="crm.form.connect" defaultMessage="Conectar CRM" />}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={intl.formatMessage({ id: 'crm.form.name', defaultMessage: 'Nombre' })}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={form.fieldError('name')}
          required
          maxLength={80}
        />
        <TextInput
          label={intl.formatMessage({ id: 'crm.form.loginUrl', defaultMessage: 'Dirección de inicio de sesión' })}
          description={intl.formatMessage({ id: 'crm.form.loginUrlHelp', defaultMessage: 'https://login.salesforce.com o la de tu dominio' })}
          value={loginURL}
          onChange={(e) => setLoginURL(e.currentTarget.value)}
          error={form.fieldError('login_url')}
          required
          type="url"
        />
        <TextInput
          label={intl.formatMessage({ id: 'crm.form.clientId', defaultMessage: 'Client id de la app conectada' })}
          value={clientID}
          onChange={(e) => setClientID(e.currentTarget.value)}
          error={form.fieldError('client_id')}
          required
          autoComplete="off"
        />
        <PasswordInput
          label={intl.formatMessage({ id: 'crm.form.clientSecret', defaultMessage: 'Client secret' })}
          description={
            setup ? intl.formatMessage({ id: 'crm.form.clientSecretKeep', defaultMessage: 'Déjalo vacío para conservar el guardado' }) : undefined
          }
          value={secret}
          onChange={(e) => setSecret(e.currentTarget.value)}
          error={form.fieldError('client_secret')}
          required={!setup}
          autoComplete="new-password"
        />
        <TextInput
          label={intl.formatMessage({ id: 'crm.form.externalId', defaultMessage: 'Campo de id externo' })}
          description={intl.formatMessage({ id: 'crm.form.externalIdHelp', defaultMessage: 'Un campo External ID en cada objeto del CRM' })}
          value={externalID}
          onChange={(e) => setExternalID(e.currentTarget.value)}
          error={form.fieldError('external_id_field')}
        />
        <NumberInput
          label={intl.formatMessage({ id: 'crm.form.dailyLimit', defaultMessage: 'Límite diario de llamadas (opcional)' })}
          description={intl.formatMessage({ id: 'crm.form.dailyLimitHelp', defaultMessage: 'Deja cupo del CRM para tus otras aplicaciones' })}
          value={limit}
          onChange={setLimit}
          min={1}
          allowDecimal={false}
          error={form.fieldError('daily_call_limit')}
        />
      </SimpleGrid>
    </ApiForm>
  );
}
