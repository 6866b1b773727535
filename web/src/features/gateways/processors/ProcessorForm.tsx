import { Alert, MultiSelect, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ApiError } from '../../../api/client';
import { campaignsQuery } from '../../campaigns/api';
import { FORBIDDEN, GLOBAL, saveProcessor, type GatewayOption, type PaymentProcessor } from './api';

export interface ProcessorValues {
  softDescriptor: string;
  retry: boolean;
  campaignsOn: boolean;
  campaignUuids: string[];
}

export const processorValues = (p?: PaymentProcessor): ProcessorValues => ({
  softDescriptor: p?.soft_descriptor ?? '',
  retry: p?.rules.retry ?? false,
  campaignsOn: (p?.rules.campaigns.length ?? 0) > 0,
  campaignUuids: p?.rules.campaigns.map((c) => c.uuid) ?? [],
});

/**
 * The local or global payments form (spec §3 "Payment processor form", §5 "Descriptor", "Global rules"): the
 * descriptor within the country's rule (or the processor's fixed one, shown), and for global payments its rules —
 * retry declined charges, and the campaigns it charges (sorted by title, promoted ones not offered).
 */
export function ProcessorForm({ option, processor, values, onChange, onSaved, actions }: {
  option: GatewayOption;
  processor?: PaymentProcessor;
  values: ProcessorValues;
  onChange: (v: ProcessorValues) => void;
  onSaved: (p: PaymentProcessor) => void;
  actions: (pending: boolean) => ReactNode;
}) {
  const intl = useIntl();
  const isGlobal = option.id === GLOBAL;
  const rule = option.descriptor;
  const campaigns = useQuery({ ...campaignsQuery(), enabled: isGlobal });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [requestError, setRequestError] = useState<string>();
  const [pending, setPending] = useState(false);
  const prefix = rule.prefixes[0];

  const choices = (campaigns.data ?? [])
    .filter((c) => c.type !== 'promoted')
    .sort((a, b) => a.title.localeCompare(b.title, intl.locale))
    .map((c) => ({ value: c.uuid, label: c.title }));

  const check = () => {
    const found: Record<string, string> = {};
    const d = values.softDescriptor.trim();
    if (rule.soft) {
      if (!d) found.soft_descriptor = intl.formatMessage({ id: 'descriptor.required', defaultMessage: 'Ingresa el texto que verán tus donantes en su resumen.' });
      else if (FORBIDDEN.test(d)) found.soft_descriptor = intl.formatMessage({ id: 'descriptor.invalid_chars', defaultMessage: 'El descriptor no puede contener < > \\ \' " *' });
      else if (rule.max_chars && [...d].length > rule.max_chars)
        found.soft_descriptor = intl.formatMessage({ id: 'descriptor.too_long', defaultMessage: 'El descriptor es demasiado largo para este procesador.' });
    }
    if (isGlobal && !values.retry && !values.campaignsOn)
      found.rules = intl.formatMessage({ id: 'processor.rules_required', defaultMessage: 'Elige al menos una regla.' });
    if (isGlobal && values.campaignsOn && values.campaignUuids.length === 0)
      found['rules.campaign_uuids'] = intl.formatMessage({ id: 'processor.campaigns_required', defaultMessage: 'Elige al menos una campaña.' });
    return found;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    setRequestError(undefined);
    const found = check();
    setErrors(found);
    if (Object.keys(found).length) return;
    setPending(true);
    try {
      onSaved(
        await saveProcessor(
          {
            gateway: option.id,
            soft_descriptor: values.softDescriptor.trim(),
            rules: { retry: isGlobal && values.retry, campaign_uuids: values.campaignsOn ? values.campaignUuids : [] },
          },
          processor?.uuid,
        ),
      );
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fields).length > 0) setErrors(e.fields);
      else setRequestError(e instanceof Error ? e.message : String(e));
    } finally {
      setPending(false);
    }
  };

  // Turning a rule on clears the no-rule error; turning the campaigns rule off clears its campaigns (spec §4).
  const setRule = (next: Partial<ProcessorValues>) => {
    onChange({ ...values, ...next, ...(next.campaignsOn === false ? { campaignUuids: [] } : {}) });
    setErrors({ ...errors, rules: undefined, 'rules.campaign_uuids': undefined });
  };

  return (
    <form onSubmit={submit} noValidate aria-busy={pending}>
      <Stack gap="md">
        {rule.soft ? (
          <TextInput
            label={<FormattedMessage id="processor.descriptor" defaultMessage="Nombre en el resumen de tarjeta" />}
            description={
              <FormattedMessage
                id="processor.descriptorHint"
                defaultMessage="Tus donantes lo verán así: {example}. Hasta {max} caracteres."
                values={{ example: `${prefix ? `${prefix}*` : ''}${values.softDescriptor.trim() || intl.formatMessage({ id: 'processor.descriptorExample', defaultMessage: 'TU ORGANIZACION' })}`, max: rule.max_chars }}
              />
            }
            leftSection={prefix ? <Text size="sm" c="dimmed">{prefix}*</Text> : undefined}
            leftSectionWidth={prefix ? 16 + prefix.length * 10 : undefined}
            value={values.softDescriptor}
            onChange={(e) => {
              onChange({ ...values, softDescriptor: e.currentTarget.value });
              setErrors({ ...errors, soft_descriptor: undefined });
            }}
            maxLength={(rule.max_chars ?? 22) + 10}
            error={errors.soft_descriptor}
            disabled={pending}
            name="soft_descriptor"
          />
        ) : (
          <Alert variant="light" color="gray" role="note">
            <FormattedMessage
              id="processor.descriptorFixed"
              defaultMessage="En tu país el procesador fija el nombre que aparece en el resumen: {value}."
              values={{ value: <strong>{prefix ? `${prefix}*${rule.value}` : rule.value}</strong> }}
            />
          </Alert>
        )}
        {isGlobal && (
          <Stack gap="xs" role="group" aria-labelledby="global-rules-title">
            <Text fw={600} size="sm" id="global-rules-title">
              <FormattedMessage id="processor.rules" defaultMessage="Reglas de cobro" />
            </Text>
            <Switch
              checked={values.retry}
              onChange={(e) => setRule({ retry: e.currentTarget.checked })}
              label={<FormattedMessage id="processor.retry" defaultMessage="Reintentar con pagos globales los cobros que tu pasarela rechace" />}
              disabled={pending}
            />
            <Switch
              checked={values.campaignsOn}
              onChange={(e) => setRule({ campaignsOn: e.currentTarget.checked })}
              label={<FormattedMessage id="processor.campaignsRule" defaultMessage="Cobrar con pagos globales las donaciones de estas campañas" />}
              disabled={pending}
            />
            {values.campaignsOn &&
              (choices.length === 0 && !campaigns.isPending ? (
                <Text size="sm" c="dimmed">
                  <FormattedMessage id="processor.noCampaigns" defaultMessage="Todavía no tienes campañas para elegir." />
                </Text>
              ) : (
                <MultiSelect
                  label={<FormattedMessage id="processor.campaigns" defaultMessage="Campañas" />}
                  data={choices}
                  value={values.campaignUuids}
                  onChange={(v) => {
                    onChange({ ...values, campaignUuids: v });
                    setErrors({ ...errors, 'rules.campaign_uuids': undefined });
                  }}
                  searchable
                  error={errors['rules.campaign_uuids']}
                  disabled={pending}
                  comboboxProps={{ withinPortal: true }}
                />
              ))}
            {errors.rules && (
              <Text size="sm" c="red.8" role="alert">
                {errors.rules}
              </Text>
            )}
          </Stack>
        )}
        {requestError && (
          <Alert color="red" variant="light" role="alert">
            {requestError}
          </Alert>
        )}
        {actions(pending)}
      </Stack>
    </form>
  );
}
