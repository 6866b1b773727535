import { SimpleGrid, Text, TextInput } from '@mantine/core';
import type { ChangeEvent } from 'react';
import { FormattedMessage } from 'react-intl';

/** Who a new person is: an invited user, an agency administrator, a person of an agency. */
export interface PersonName {
  first_name: string;
  last_name: string;
  email: string;
}

/** The person as it is sent: name and e-mail without surrounding blanks. */
export const trimPerson = <T extends PersonName>(p: T): T => ({ ...p, email: p.email.trim(), first_name: p.first_name.trim(), last_name: p.last_name.trim() });

/** A new person's first and last name side by side (stacked on a phone), then the e-mail; the first name takes the focus. */
export function PersonFields<T extends PersonName>({ value, onChange, errors }: { value: T; onChange: (next: T) => void; errors: Partial<Record<string, string>> }) {
  const set = (field: keyof PersonName) => (e: ChangeEvent<HTMLInputElement>) => onChange({ ...value, [field]: e.currentTarget.value });
  return (
    <>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <TextInput label={<FormattedMessage id="signup.user.first" defaultMessage="Nombre" />} required value={value.first_name} onChange={set('first_name')} error={errors.first_name} data-autofocus />
        <TextInput label={<FormattedMessage id="signup.user.last" defaultMessage="Apellido" />} required value={value.last_name} onChange={set('last_name')} error={errors.last_name} />
      </SimpleGrid>
      <TextInput label={<FormattedMessage id="signup.user.email" defaultMessage="E-mail" />} type="email" required value={value.email} onChange={set('email')} error={errors.email} />
    </>
  );
}

/** A person in a list's first column: the name (the e-mail when there is none) over the e-mail. */
export function PersonCell({ name, email }: { name: string; email: string }) {
  return (
    <>
      <Text fw={600} size="sm">
        {name || email}
      </Text>
      <Text size="xs" c="dimmed">
        {email}
      </Text>
    </>
  );
}
