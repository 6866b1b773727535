import { SimpleGrid, Text, TextInput } from '@mantine/core';
import { useState, type ChangeEvent, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { fieldErrors } from '../../api/client';
import { FormModal } from '../../components/FormModal';
import { checkEmail } from '../accounts/rules';

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

type Errors = Partial<Record<string, string>>;

/**
 * The form of a dialog that adds a person (an invited user, an agency administrator): the value, its errors, and the
 * submit FormModal takes. Submit checks the e-mail (and with `requireNames` the names) here, sends the trimmed person,
 * shows the server's field errors (anything else under the e-mail) and, once sent, starts again from `empty`.
 */
export function usePersonForm<T extends PersonName>(empty: T, send: (person: T) => Promise<unknown>, { requireNames = false } = {}) {
  const intl = useIntl();
  const [value, setValue] = useState<T>(empty);
  const [errors, setErrors] = useState<Errors>({});
  const submit = async () => {
    const trimmed = trimPerson(value);
    const local: Errors = {};
    const emailProblem = checkEmail(trimmed.email);
    if (emailProblem) local.email = intl.formatMessage(emailProblem);
    if (requireNames)
      for (const field of ['first_name', 'last_name'] as const) {
        if (!trimmed[field]) local[field] = intl.formatMessage({ id: 'form.required', defaultMessage: 'Este campo es requerido' });
      }
    setErrors(local);
    if (Object.keys(local).length > 0) return false;
    try {
      await send(trimmed);
    } catch (e) {
      // Field errors come keyed by the request's field names; anything else shows under the e-mail.
      setErrors(fieldErrors(e, 'email'));
      return false;
    }
    setValue(empty);
    return true;
  };
  return { value, setValue, errors, submit };
}

/** The dialog that adds a person: their name and e-mail, then whatever else the form asks (`children`). */
export function NewPersonModal<T extends PersonName>({ form, opened, onClose, title, subtitle, confirm, children }: {
  form: ReturnType<typeof usePersonForm<T>>; opened: boolean; onClose: () => void; title: ReactNode; subtitle: ReactNode; confirm: ReactNode; children?: ReactNode;
}) {
  return (
    <FormModal opened={opened} onClose={onClose} title={title} subtitle={subtitle} submit={form.submit} confirm={confirm}>
      <PersonFields value={form.value} onChange={form.setValue} errors={form.errors} />
      {children}
    </FormModal>
  );
}
