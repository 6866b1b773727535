import { Alert, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { ApiError } from '../../../api/client';
import { nameOf } from '../../../i18n/nameOf';
import { saveBankAccount, typesOf, type BankAccount, type BankAccountForm as Form, type BankParams } from './api';

type Field = Exclude<keyof Form, 'primary'>;
type Errors = Partial<Record<Field, string>>;

const OPTIONAL: Field[] = ['bank_address', 'bank_city', 'bank_branch'];

/** The form's starting values: the account being edited (its number left empty: the server keeps it), or blanks. */
export function initialValues(account?: BankAccount): Form {
  return {
    bank_name: account?.bank_name ?? '',
    bank_code: account?.bank_code ?? '',
    account_number: '',
    account_type: account?.account_type ?? '',
    bank_address: account?.bank_address ?? '',
    bank_city: account?.bank_city ?? '',
    bank_branch: account?.bank_branch ?? '',
    contact_first_name: account?.contact_first_name ?? '',
    contact_last_name: account?.contact_last_name ?? '',
    contact_email: account?.contact_email ?? '',
    contact_phone: account?.contact_phone ?? '',
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The client's checks (spec §5 "Bank account form"); the server checks again, and the number's rules are its own. */
function check(values: Form, params: BankParams, editing: boolean, intl: IntlShape): Errors {
  const errors: Errors = {};
  const required = intl.formatMessage({ id: 'bank_account.required', defaultMessage: 'Este campo es obligatorio.' });
  const must: Field[] = ['bank_code', 'contact_first_name', 'contact_last_name', 'contact_email', 'contact_phone'];
  if (!editing) must.push('account_number');
  must.push(...OPTIONAL.filter((f) => params.required_fields.includes(f)));
  const bank = params.banks.find((b) => b.code === values.bank_code);
  if (typesOf(params, bank).length > 0) must.push('account_type');
  for (const f of must) if (!String(values[f] ?? '').trim()) errors[f] = required;
  if (!errors.contact_email && !EMAIL.test(values.contact_email.trim()))
    errors.contact_email = intl.formatMessage({ id: 'bank_account.email_invalid', defaultMessage: 'El e-mail no es válido.' });
  return errors;
}

/** What is sent: trimmed, the bank's label from the list, the fields the country does not ask for left out. */
function payload(values: Form, params: BankParams): Form {
  const t = (s?: string) => (s ?? '').trim();
  const bank = params.banks.find((b) => b.code === values.bank_code);
  const types = typesOf(params, bank);
  return {
    bank_code: t(values.bank_code),
    bank_name: bank?.label ?? '',
    account_number: t(values.account_number),
    account_type: types.length > 0 ? t(values.account_type) : '',
    bank_address: params.required_fields.includes('bank_address') ? t(values.bank_address) : '',
    bank_city: params.required_fields.includes('bank_city') ? t(values.bank_city) : '',
    bank_branch: params.required_fields.includes('bank_branch') ? t(values.bank_branch) : '',
    contact_first_name: t(values.contact_first_name),
    contact_last_name: t(values.contact_last_name),
    contact_email: t(values.contact_email),
    contact_phone: t(values.contact_phone),
  };
}

const accountTypeNames = defineMessages({
  C: { id: 'bankAccount.type.C', defaultMessage: 'Cuenta corriente' },
  S: { id: 'bankAccount.type.S', defaultMessage: 'Caja de ahorro' },
  V: { id: 'bankAccount.type.V', defaultMessage: 'Cuenta vista' },
  M: { id: 'bankAccount.type.M', defaultMessage: 'Cuenta maestra' },
});

export const accountTypeLabel = (intl: IntlShape, type: string) => nameOf(intl, accountTypeNames, type);

export interface BankAccountFormProps {
  params: BankParams;
  /** The account being edited; none: a new one. */
  account?: BankAccount;
  values: Form;
  onChange: (values: Form) => void;
  onSaved: (account: BankAccount) => void;
  /** The form's buttons, given whether a save is under way. */
  actions: (pending: boolean) => ReactNode;
  /** Told when a save starts and ends (a modal cannot be closed meanwhile). */
  onPendingChange?: (pending: boolean) => void;
  id?: string;
}

/**
 * The bank account form (spec §2 "Bank account form", §5): the bank from the country's list (filtered as typed),
 * its account types (the bank's own, else the country's, the first by default; none asked where there are none),
 * the address, city and branch where the country asks for them, and the contact. Field errors come from the
 * client's checks first, then from the server (the number's check digits) in the reader's language.
 */
export function BankAccountForm({ params, account, values, onChange, onSaved, actions, onPendingChange, id }: BankAccountFormProps) {
  const intl = useIntl();
  const [errors, setErrors] = useState<Errors>({});
  const [requestError, setRequestError] = useState<string>();
  const [pending, setPendingState] = useState(false);
  const setPending = (p: boolean) => {
    setPendingState(p);
    onPendingChange?.(p);
  };
  const bank = params.banks.find((b) => b.code === values.bank_code);
  const types = typesOf(params, bank);

  const set = (field: Field, value: string) => {
    onChange({ ...values, [field]: value });
    if (errors[field]) setErrors({ ...errors, [field]: undefined });
  };

  const chooseBank = (code: string | null) => {
    const next = params.banks.find((b) => b.code === code);
    const nextTypes = typesOf(params, next);
    onChange({
      ...values,
      bank_code: code ?? '',
      bank_name: next?.label ?? '',
      account_type: nextTypes.length === 0 ? '' : nextTypes.includes(values.account_type) ? values.account_type : (nextTypes[0] ?? ''),
    });
    setErrors({ ...errors, bank_code: undefined, account_type: undefined });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    setRequestError(undefined);
    const found = check(values, params, !!account, intl);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    try {
      onSaved(await saveBankAccount(payload(values, params), account?.uuid));
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fields).length > 0) setErrors(e.fields as Errors);
      else setRequestError(e instanceof Error ? e.message : String(e));
    } finally {
      setPending(false);
    }
  };

  const invalid = Object.values(errors).some(Boolean);
  const text = (field: Field, label: ReactNode, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={label}
      value={String(values[field] ?? '')}
      onChange={(e) => set(field, e.currentTarget.value)}
      error={errors[field]}
      disabled={pending}
      name={field}
      {...extra}
    />
  );

  return (
    <form onSubmit={submit} noValidate id={id} aria-busy={pending}>
      <Stack gap="sm">
        <Select
          label={<FormattedMessage id="bankAccount.bank" defaultMessage="Banco" />}
          placeholder={intl.formatMessage({ id: 'bankAccount.bankPlaceholder', defaultMessage: 'Busca tu banco' })}
          data={params.banks.map((b) => ({ value: b.code, label: b.label }))}
          value={values.bank_code || null}
          onChange={chooseBank}
          searchable
          nothingFoundMessage={intl.formatMessage({ id: 'bankAccount.noBank', defaultMessage: 'Ningún banco coincide' })}
          error={errors.bank_code}
          disabled={pending}
          name="bank_code"
          comboboxProps={{ withinPortal: true }}
        />
        {text('account_number', <FormattedMessage id="bankAccount.number" defaultMessage="Número de cuenta" />, {
          inputMode: 'numeric',
          autoComplete: 'off',
          spellCheck: false,
          placeholder: account?.account_number,
          description: account ? (
            <FormattedMessage id="bankAccount.numberKeep" defaultMessage="Déjalo vacío para conservar el número guardado ({masked})." values={{ masked: account.account_number }} />
          ) : undefined,
        })}
        {types.length > 0 && (
          <Select
            label={<FormattedMessage id="bankAccount.type" defaultMessage="Tipo de cuenta" />}
            data={types.map((t) => ({ value: t, label: accountTypeLabel(intl, t) }))}
            value={values.account_type || null}
            onChange={(v) => set('account_type', v ?? '')}
            allowDeselect={false}
            error={errors.account_type}
            disabled={pending}
            name="account_type"
          />
        )}
        {params.required_fields.includes('bank_branch') && text('bank_branch', <FormattedMessage id="bankAccount.branch" defaultMessage="Sucursal (agencia)" />)}
        {params.required_fields.includes('bank_address') && text('bank_address', <FormattedMessage id="bankAccount.address" defaultMessage="Dirección del banco" />)}
        {params.required_fields.includes('bank_city') && text('bank_city', <FormattedMessage id="bankAccount.city" defaultMessage="Ciudad del banco" />)}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {text('contact_first_name', <FormattedMessage id="bankAccount.firstName" defaultMessage="Nombre del contacto" />, { autoComplete: 'given-name' })}
          {text('contact_last_name', <FormattedMessage id="bankAccount.lastName" defaultMessage="Apellido del contacto" />, { autoComplete: 'family-name' })}
          {text('contact_email', <FormattedMessage id="bankAccount.email" defaultMessage="E-mail del contacto" />, { type: 'email', autoComplete: 'email' })}
          {text('contact_phone', <FormattedMessage id="bankAccount.phone" defaultMessage="Teléfono del contacto" />, { type: 'tel', autoComplete: 'tel' })}
        </SimpleGrid>
        {invalid && (
          <Alert color="red" variant="light" role="alert">
            <FormattedMessage id="bankAccount.inputErrors" defaultMessage="Revisa los campos marcados antes de guardar." />
          </Alert>
        )}
        {requestError && (
          <Alert color="red" variant="light" role="alert" title={<FormattedMessage id="bankAccount.requestError" defaultMessage="No pudimos guardar la cuenta" />}>
            {requestError}
          </Alert>
        )}
        {actions(pending)}
      </Stack>
    </form>
  );
}
