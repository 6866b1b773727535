import { Badge, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { nameOf } from '../../i18n/nameOf';

export const roleNames = defineMessages({
  manager: { id: 'agencies.role.manager', defaultMessage: 'Gerente' },
  operator: { id: 'agencies.role.operator', defaultMessage: 'Operador' },
  supervisor: { id: 'agencies.role.supervisor', defaultMessage: 'Supervisor' },
});

export function RoleName({ role }: { role: string }) {
  const intl = useIntl();
  return <>{nameOf(intl, roleNames, role)}</>;
}

/** A sync delay as the spec's options name it: immediately, 1, 5, 10, 30 minutes, 1 or 2 hours. */
export function delayLabel(intl: IntlShape, seconds: number): string {
  if (seconds === 0) return intl.formatMessage({ id: 'agencies.delay.now', defaultMessage: 'Inmediatamente' });
  if (seconds < 3600) return intl.formatMessage({ id: 'agencies.delay.minutes', defaultMessage: '{n, plural, one {# minuto} other {# minutos}}' }, { n: seconds / 60 });
  return intl.formatMessage({ id: 'agencies.delay.hours', defaultMessage: '{n, plural, one {# hora} other {# horas}}' }, { n: seconds / 3600 });
}

export function ModeBadge({ mode }: { mode: string }) {
  return mode === 'live' ? (
    <Badge color="green" variant="light" style={{ flexShrink: 0 }}>
      <FormattedMessage id="agencies.mode.live" defaultMessage="Real" />
    </Badge>
  ) : (
    <Badge color="yellow" variant="light" style={{ flexShrink: 0 }}>
      <FormattedMessage id="agencies.mode.sandbox" defaultMessage="Práctica" />
    </Badge>
  );
}

/** A row's flags that are on, as badges (a campaign's options, a person's permissions). */
export function Flags({ flags }: { flags: { on: boolean; label: ReactNode; color?: string }[] }) {
  return (
    <Group gap={4}>
      {flags.map(
        (f, i) =>
          f.on && (
            <Badge key={i} variant="light" color={f.color}>
              {f.label}
            </Badge>
          ),
      )}
    </Group>
  );
}
