import { useIntl } from 'react-intl';
import type { PublicBankDebit } from './api';
import { Field } from './Field';
import { m } from './messages';
import type { BankValues, Errors, FieldError } from './validate';

/**
 * The off-site bank debit's fields (bank, person type, document): loaded only when the campaign's processor offers
 * one, so the form's first download stays small. The donor approves the payment at their bank afterwards.
 */
export default function BankDebitFields({ offer, values, errors, onChange }: {
  offer: PublicBankDebit;
  values: BankValues;
  errors: Errors;
  onChange: <K extends keyof BankValues>(key: K, value: BankValues[K]) => void;
}) {
  const intl = useIntl();
  const t = (e?: FieldError) => (e ? e.text ?? intl.formatMessage(m[e.key], e.values) : undefined);
  return (
    <div data-testid="bank-debit">
      <p className="muted small" id="bank-debit-note">{intl.formatMessage(m.bankRedirectHint)}</p>
      <Field id="f-bank" label={intl.formatMessage(m.bankBank)} error={t(errors.bank)}>
        {(aria) => (
          <select {...aria} value={values.bank} onChange={(e) => onChange('bank', e.target.value)}>
            <option value="">{intl.formatMessage(m.choose)}</option>
            {offer.banks.map((b) => <option key={b.code} value={b.code}>{b.label}</option>)}
          </select>
        )}
      </Field>
      <div className="segmented" role="radiogroup" aria-label={intl.formatMessage(m.bankPersonType)} id="f-personType" tabIndex={-1}>
        {offer.person_types.map((p) => (
          <label key={p} className={values.personType === p ? 'selected' : ''}>
            <input type="radio" name="personType" value={p} checked={values.personType === p} onChange={() => onChange('personType', p)} />
            {intl.formatMessage(p === 'legal' ? m.bankLegal : m.bankNatural)}
          </label>
        ))}
      </div>
      <div className="grid doc">
        <Field id="f-bankIdType" label={intl.formatMessage(m.bankIdType)} error={t(errors.bankIdType)}>
          {(aria) => (
            <select {...aria} value={values.idType} onChange={(e) => onChange('idType', e.target.value)}>
              {offer.id_types.map((d) => <option key={d} value={d}>{d}</option>)}
            </select>
          )}
        </Field>
        <Field id="f-bankIdNumber" label={intl.formatMessage(m.bankIdNumber)} error={t(errors.bankIdNumber)}>
          {(aria) => (
            <input {...aria} inputMode="numeric" autoComplete="off" value={values.idNumber}
              onChange={(e) => onChange('idNumber', e.target.value)} />
          )}
        </Field>
      </div>
    </div>
  );
}
