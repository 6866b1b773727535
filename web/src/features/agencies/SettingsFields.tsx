import { SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { SYNC_DELAYS, type AgencySettings } from './api';
import { delayLabel } from './labels';

/** Name, mode and sync delay: the new-agency form's fields and the agency page's settings. */
export function SettingsFields({ value, onChange, errors }: { value: AgencySettings; onChange: (v: AgencySettings) => void; errors: Record<string, string> }) {
  const intl = useIntl();
  return (
    <Stack gap="sm">
      <TextInput
        label={<FormattedMessage id="agencies.field.name" defaultMessage="Nombre del equipo" />}
        required
        value={value.agency_name}
        onChange={(e) => onChange({ ...value, agency_name: e.currentTarget.value })}
        error={errors.agency_name}
        data-autofocus
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} id="agency-mode-label">
          <FormattedMessage id="agencies.field.mode" defaultMessage="Modo" />
        </Text>
        <SegmentedControl
          aria-labelledby="agency-mode-label"
          value={value.mode}
          onChange={(v) => onChange({ ...value, mode: v as AgencySettings['mode'] })}
          data={[
            { value: 'sandbox', label: intl.formatMessage({ id: 'agencies.mode.sandbox', defaultMessage: 'Práctica' }) },
            { value: 'live', label: intl.formatMessage({ id: 'agencies.mode.live', defaultMessage: 'Real' }) },
          ]}
        />
        <Text size="xs" c="dimmed">
          {value.mode === 'live' ? (
            <FormattedMessage id="agencies.mode.liveHint" defaultMessage="Las altas pasan a la organización y se cobran al terminar la demora." />
          ) : (
            <FormattedMessage id="agencies.mode.sandboxHint" defaultMessage="Las altas son de práctica: no se cobran ni pasan a la organización." />
          )}
        </Text>
        {errors.mode && (
          <Text size="xs" c="red.8" role="alert">
            {errors.mode}
          </Text>
        )}
      </Stack>
      <Select
        label={<FormattedMessage id="agencies.field.delay" defaultMessage="Demora de sincronización" />}
        description={<FormattedMessage id="agencies.field.delayHint" defaultMessage="Tiempo para corregir o anular un alta antes de que pase a la organización. Un cambio vale para las altas nuevas." />}
        data={SYNC_DELAYS.map((s) => ({ value: String(s), label: delayLabel(intl, s) }))}
        value={String(value.sync_delay)}
        allowDeselect={false}
        onChange={(v) => onChange({ ...value, sync_delay: Number(v ?? 0) })}
        error={errors.sync_delay}
      />
    </Stack>
  );
}
