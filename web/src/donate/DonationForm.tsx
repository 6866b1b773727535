import { lazy, Suspense, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { call, campaignPath, type PublicCampaign } from './api';
import { Field } from './Field';
import { brandName, cardLayout, cleanNumber, detectBrand, formatCardNumber, type Brand } from './lib/brand';
import { EXPIRY_MAX_LENGTH, formatExpiry } from './lib/expiry';
import { formatMoney, parseDecimal } from './lib/money';
import { fetchAmountLimits } from './lib/tokenizer';
import { m } from './messages';
import { bankDebitPayload, donationPayload, isTickets, newKey, postDonation, SubmitFailure, tokenize, type Attempt } from './submit';
import {
  CARD_FIELDS, chosenAmount, EMAIL_RE, FIELD_ORDER, validate, validateBank, type BankValues, type Errors, type FieldError, type Values,
} from './validate';

// The bank debit's fields download only on a form that offers one.
const BankDebitFields = lazy(() => import('./BankDebit'));

const BRAND_DELAY_MS = 300;
const LIMITS_DELAY_MS = 1000;
const LEAD_DELAY_MS = 1500;

const MAX_TICKETS = 10;

/** The public donation form; onSuccess receives the donation's signed receipt reference (and a one-time gift's convert-to-monthly token). */
export function DonationForm({ campaign, onSuccess }: { campaign: PublicCampaign; onSuccess: (receipt: string, convertToken?: string) => void }) {
  const intl = useIntl();
  const c = campaign;
  const fmt = (minor: number) => formatMoney(minor, c.currency);
  const presets = useMemo(() => c.amounts.map((a) => a.amount.minor), [c]);
  const docTypes = c.document_types.length > 0 ? c.document_types : ['DNI', 'CUIL', 'CUIT', 'Otro'];
  const defaultDoc = docTypes.includes('DNI') ? 'DNI' : (docTypes[0] ?? '');
  const tickets = isTickets(c) ? c.event!.tickets : [];
  const salesEnd = c.event?.ticket_sales_end ? new Date(c.event.ticket_sales_end) : null;
  const salesEnded = tickets.length > 0 && salesEnd !== null && salesEnd <= new Date();

  const [values, setValues] = useState<Values>(() => ({
    recurrency: c.default_recurrency === 0 && c.allow_one_time ? 0 : 1,
    amountChoice: presets.length > 0 ? 0 : 'other',
    otherAmount: '',
    upgrade: false,
    instalments: 1,
    cardNumber: '',
    expiry: '',
    cvv: '',
    holderName: '',
    notCardholder: false,
    holderIdType: defaultDoc,
    holderIdNumber: '',
    firstName: '',
    lastName: '',
    email: '',
    uidType: defaultDoc,
    uidNumber: '',
    extras: {},
    ticket: tickets[0]?.name ?? '',
    ticketQuantity: 1,
  }));
  // The off-site bank debit, where the campaign's processor offers it: one-time donations only (a debit the donor
  // approves at their bank cannot be charged again next month), so it needs a form that takes one-time gifts.
  const offer = c.allow_one_time ? c.bank_debit : undefined;
  const [method, setMethod] = useState<'card' | 'bank'>('card');
  const [bank, setBank] = useState<BankValues>(() => ({
    bank: '', personType: offer?.person_types[0] ?? 'natural', idType: offer?.id_types[0] ?? '', idNumber: '',
  }));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<{ error: FieldError; text?: string } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [brand, setBrand] = useState<Brand>('unknown');
  // Until the gateway answers, the server's view of the limits: its account's, else the defaults of 10 to 8000
  // (§9). A donor who sends within the first second is then held to the campaign's real range, not to 8000 of a
  // currency such as COP, where the smallest preset is larger.
  const [limits, setLimits] = useState({ min: c.limits.min.minor, max: c.limits.max.minor });
  const inFlight = useRef(false);
  const leaving = useRef(false); // on the way to the bank: the form stays busy
  const attempt = useRef<Attempt | null>(null);
  const leadSent = useRef(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  // The account's card rules (brand, lengths, security code, Luhn); empty when the gateway could not say.
  const rules = c.payment_methods;
  const layout = cardLayout(brand, rules);

  // The gateway's limits replace the server's one second after the form loads (§4, §9): asked at the
  // gateway's public API; while it does not answer, the server's view of them stays.
  useEffect(() => {
    let live = true;
    const t = setTimeout(async () => {
      const fromGateway = await fetchAmountLimits(c.gateway, (major) => parseDecimal(String(major), c.currency));
      const min = fromGateway?.min ?? c.limits.min.minor;
      const max = fromGateway?.max ?? c.limits.max.minor;
      if (live && min !== null && max !== null && max >= min) setLimits({ min, max });
    }, LIMITS_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [c]);

  // Brand detection 300 ms after typing stops.
  useEffect(() => {
    const t = setTimeout(() => setBrand(detectBrand(values.cardNumber, rules)), BRAND_DELAY_MS);
    return () => clearTimeout(t);
  }, [values.cardNumber, rules]);
  useEffect(() => {
    setValues((v) => ({ ...v, cardNumber: formatCardNumber(v.cardNumber, cardLayout(brand, rules)) }));
  }, [brand, rules]);

  // A valid e-mail typed but not submitted becomes a lead, once.
  useEffect(() => {
    const email = values.email.trim();
    if (leadSent.current || !EMAIL_RE.test(email)) return;
    const t = setTimeout(() => {
      if (leadSent.current) return;
      leadSent.current = true;
      call(`${campaignPath(c.slug)}/leads`, 'POST', { email, first_name: values.firstName.trim() }).catch(() => {
        leadSent.current = false;
      });
    }, LEAD_DELAY_MS);
    return () => clearTimeout(t);
  }, [values.email, values.firstName, c.slug]);

  const extrasMeta = c.form_fields.map((f) => ({ ...f, key: `extra.${f.order}` }));
  const ctx = {
    presets,
    currency: c.currency,
    min: limits.min,
    max: limits.max,
    minOther: c.min_other_amount?.minor ?? null,
    format: fmt,
    brand,
    rules,
    extras: extrasMeta.map((f) => ({ key: f.key, type: f.type, required: f.required })),
  };
  const amount = chosenAmount(values, ctx);
  const total = amount === null ? null : amount * (tickets.length > 0 ? values.ticketQuantity : 1);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key as string]) setErrors((e) => ({ ...e, [key]: undefined }));
    if (key === 'recurrency' && value === 1) setMethod('card');
  };
  const bankErrorKey = { bank: 'bank', personType: 'bank', idType: 'bankIdType', idNumber: 'bankIdNumber' } as const;
  const setBankValue = <K extends keyof BankValues>(key: K, value: BankValues[K]) => {
    setBank((b) => ({ ...b, [key]: value }));
    setErrors((e) => ({ ...e, [bankErrorKey[key]]: undefined }));
  };
  const chooseMethod = (next: 'card' | 'bank') => {
    setMethod(next);
    if (next === 'bank') set('recurrency', 0);
  };
  const byBank = method === 'bank' && offer !== undefined;
  const t = (e?: FieldError) => (e ? e.text ?? intl.formatMessage(m[e.key], e.values) : undefined);

  async function onSubmit(ev: FormEvent) {
    ev.preventDefault();
    if (inFlight.current || salesEnded) return; // a double click submits once
    const found = validate(values, { ...ctx, brand: detectBrand(values.cardNumber, rules) });
    if (byBank) {
      for (const k of CARD_FIELDS) delete found[k];
      Object.assign(found, validateBank(bank));
    }
    setErrors(found);
    const first = [...FIELD_ORDER, ...extrasMeta.map((f) => f.key)].find((k) => found[k]);
    if (first) {
      setFailure({ error: { key: 'summary' } });
      document.getElementById(`f-${first}`)?.focus();
      return;
    }
    const cardBrand = detectBrand(values.cardNumber, rules);
    const accepted = c.gateway.accepted_brands?.split(',').map((s) => s.trim()).filter(Boolean);
    if (!byBank && accepted && accepted.length > 0 && !accepted.includes(cardBrand)) {
      setFailure({ error: { key: 'cardNotAllowed', values: { card_name: brandName(cardBrand, rules) } } });
      return;
    }
    inFlight.current = true;
    setSubmitting(true);
    setFailure(null);
    // One idempotency key per attempt: a retry of the same data reuses it, changed data gets a new one.
    const fingerprint = JSON.stringify({ ...values, cardNumber: cleanNumber(values.cardNumber), bank: byBank ? bank : null });
    if (!attempt.current || attempt.current.fingerprint !== fingerprint) {
      attempt.current = { key: newKey(), itemUuid: newKey(), fingerprint };
    }
    try {
      if (byBank) {
        const res = await postDonation(c.slug, bankDebitPayload(c, values, amount!, bank, attempt.current), '');
        leadSent.current = true;
        // To the bank, to approve the payment; it sends the donor back to the thank-you page, which reads the outcome.
        if (res.redirect_url) {
          leaving.current = true;
          return location.assign(res.redirect_url);
        }
        if (!res.receipt) throw new SubmitFailure({ key: 'submitFailed' });
        return onSuccess(res.receipt);
      }
      const idType = values.notCardholder ? values.holderIdType : values.uidType;
      const idNumber = values.notCardholder ? values.holderIdNumber : values.uidNumber;
      const token = await tokenize(c, values, idType, idNumber);
      const payload = donationPayload(c, values, amount!, cardBrand, token, attempt.current);
      const res = await postDonation(c.slug, payload, brandName(cardBrand, rules));
      leadSent.current = true;
      if (!res.receipt) throw new SubmitFailure({ key: 'submitFailed' });
      onSuccess(res.receipt, res.convert_token);
    } catch (e) {
      const f = e instanceof SubmitFailure ? e : new SubmitFailure({ key: 'submitFailed' });
      setFailure({ error: f.error, text: f.text });
      if (Object.keys(f.fields).length > 0) {
        setErrors(Object.fromEntries(Object.entries(f.fields).map(([k, text]) => [k, { key: 'required', text }])));
      }
      requestAnimationFrame(() => summaryRef.current?.focus());
    } finally {
      if (!leaving.current) {
        inFlight.current = false;
        setSubmitting(false);
      }
    }
  }

  const monthlyOnly = !c.allow_one_time;
  const periodic = c.periodic_increase;
  const showUpgrade = values.recurrency === 1 && periodic.enabled && periodic.percentage !== null;
  const showInstalments = values.recurrency === 0 && c.instalment_options.length > 0;
  const submitLabel =
    total === null
      ? intl.formatMessage(m.donate)
      : intl.formatMessage(byBank ? m.bankSubmit : values.recurrency === 1 ? m.donateMonthly : m.donateOnce, { amount: fmt(total) });

  return (
    <form className="donation-form" noValidate onSubmit={onSubmit} aria-busy={submitting}>
      <fieldset className="section">
        <legend className="section-title">
          <span className="step" aria-hidden>1</span>
          {intl.formatMessage(m.stepAmount)}
        </legend>

        {!monthlyOnly && (
          <div className="segmented" role="radiogroup" aria-label={intl.formatMessage(m.recurrence)}>
            {([1, 0] as const).map((r) => (
              <label key={r} className={values.recurrency === r ? 'selected' : ''}>
                <input type="radio" name="recurrency" value={r} checked={values.recurrency === r} onChange={() => set('recurrency', r)} />
                {intl.formatMessage(r === 1 ? m.monthly : m.oneTime)}
              </label>
            ))}
          </div>
        )}

        {tickets.length > 0 && (
          <div className="grid">
            <Field id="f-ticket" label={intl.formatMessage(m.ticket)} error={t(errors.ticket)}>
              {(aria) => (
                <select {...aria} value={values.ticket} onChange={(e) => set('ticket', e.target.value)}>
                  {tickets.map((tk) => <option key={tk.name} value={tk.name}>{tk.name}</option>)}
                </select>
              )}
            </Field>
            <Field id="f-ticketQuantity" label={intl.formatMessage(m.ticketQuantity)}>
              {(aria) => (
                <select {...aria} value={values.ticketQuantity} onChange={(e) => set('ticketQuantity', Number(e.target.value))}>
                  {Array.from({ length: MAX_TICKETS }, (_, i) => i + 1).map((n) => <option key={n} value={n}>{n}</option>)}
                </select>
              )}
            </Field>
          </div>
        )}

        <div className="amounts" role="radiogroup" aria-label={intl.formatMessage(tickets.length > 0 ? m.ticketPrice : m.amount)} id="f-amount" tabIndex={-1}
          aria-invalid={Boolean(errors.amount)} aria-describedby={errors.amount ? 'f-amount-error' : undefined}>
          {c.amounts.map((a, i) => (
            <label key={i} className={`amount ${values.amountChoice === i ? 'selected' : ''}`}>
              <input type="radio" name="amount" checked={values.amountChoice === i} onChange={() => set('amountChoice', i)} />
              <span className="amount-value">{fmt(presets[i] ?? 0)}</span>
              {a.label && <span className="amount-label">{a.label}</span>}
            </label>
          ))}
          {(c.allow_other_amount || c.amounts.length === 0) && (
            <label className={`amount other ${values.amountChoice === 'other' ? 'selected' : ''}`}>
              <input type="radio" name="amount" checked={values.amountChoice === 'other'} onChange={() => set('amountChoice', 'other')} />
              <span className="amount-value">{intl.formatMessage(m.otherAmount)}</span>
            </label>
          )}
        </div>
        {errors.amount && <p className="error" id="f-amount-error">{t(errors.amount)}</p>}

        {values.amountChoice === 'other' && (
          <Field id="f-otherAmount" label={intl.formatMessage(m.otherAmountLabel, { currency: c.currency })} error={t(errors.otherAmount)}
            hint={ctx.minOther !== null || limits.min ? intl.formatMessage(m.minAmount, { amount: fmt(Math.max(limits.min, ctx.minOther ?? 0)) }) : undefined}>
            {(aria) => (
              <input {...aria} inputMode="decimal" autoComplete="off" value={values.otherAmount}
                onChange={(e) => set('otherAmount', e.target.value.replace(/[^\d.,]/g, ''))} />
            )}
          </Field>
        )}

        {showUpgrade && (
          <label className="check upgrade">
            <input type="checkbox" checked={values.upgrade} onChange={(e) => set('upgrade', e.target.checked)} />
            <span>
              <strong>{intl.formatMessage(m.upgrade, { percentage: String(periodic.percentage), period: periodic.period_months ?? 12 })}</strong>
              <small>{intl.formatMessage(m.upgradeHint)}</small>
            </span>
          </label>
        )}

        {showInstalments && (
          <Field id="f-instalments" label={intl.formatMessage(m.instalments)}>
            {(aria) => (
              <select {...aria} value={values.instalments} onChange={(e) => set('instalments', Number(e.target.value))}>
                <option value={1}>{intl.formatMessage(m.instalmentsOne)}</option>
                {c.instalment_options.map((n) => (
                  <option key={n} value={n}>{intl.formatMessage(m.instalmentsN, { count: n })}</option>
                ))}
              </select>
            )}
          </Field>
        )}
      </fieldset>

      <fieldset className="section">
        <legend className="section-title">
          <span className="step" aria-hidden>2</span>
          {intl.formatMessage(m.stepDonor)}
        </legend>
        <div className="grid">
          <Field id="f-firstName" label={intl.formatMessage(m.firstName)} error={t(errors.firstName)}>
            {(aria) => <input {...aria} autoComplete="given-name" value={values.firstName} onChange={(e) => set('firstName', e.target.value)} />}
          </Field>
          <Field id="f-lastName" label={intl.formatMessage(m.lastName)} error={t(errors.lastName)}>
            {(aria) => <input {...aria} autoComplete="family-name" value={values.lastName} onChange={(e) => set('lastName', e.target.value)} />}
          </Field>
        </div>
        <Field id="f-email" label={intl.formatMessage(m.email)} error={t(errors.email)}>
          {(aria) => <input {...aria} type="email" autoComplete="email" inputMode="email" value={values.email} onChange={(e) => set('email', e.target.value)} />}
        </Field>
        <div className="grid doc">
          <Field id="f-uidType" label={intl.formatMessage(m.uidType)} error={t(errors.uidType)}>
            {(aria) => (
              <select {...aria} value={values.uidType} onChange={(e) => set('uidType', e.target.value)}>
                {docTypes.map((d) => <option key={d} value={d}>{d}</option>)}
              </select>
            )}
          </Field>
          <Field id="f-uidNumber" label={intl.formatMessage(m.uidNumber)} error={t(errors.uidNumber)}>
            {(aria) => <input {...aria} inputMode="numeric" autoComplete="off" value={values.uidNumber} onChange={(e) => set('uidNumber', e.target.value)} />}
          </Field>
        </div>
      </fieldset>

      {extrasMeta.length > 0 && (
        <fieldset className="section">
          <legend className="section-title">
            <span className="step" aria-hidden>3</span>
            {intl.formatMessage(m.stepExtra)}
          </legend>
          <div className="grid">
            {extrasMeta.map((f) => (
              <ExtraField key={f.key} field={f} value={values.extras[f.key] ?? ''} error={t(errors[f.key])}
                chooseLabel={intl.formatMessage(m.choose)}
                onChange={(val) => {
                  setValues((v) => ({ ...v, extras: { ...v.extras, [f.key]: val } }));
                  setErrors((e) => ({ ...e, [f.key]: undefined }));
                }} />
            ))}
          </div>
        </fieldset>
      )}

      <fieldset className="section">
        <legend className="section-title">
          <span className="step" aria-hidden>{extrasMeta.length > 0 ? 4 : 3}</span>
          {intl.formatMessage(offer ? m.stepPayment : m.stepCard)}
        </legend>
        {offer && (
          <>
              <div className="segmented" role="radiogroup" aria-label={intl.formatMessage(m.bankMethod)} aria-describedby="bank-one-time">
                {(['card', 'bank'] as const).map((p) => (
                  <label key={p} className={method === p ? 'selected' : ''}>
                    <input type="radio" name="paymentMethod" value={p} checked={method === p} onChange={() => chooseMethod(p)} />
                    {p === 'card' ? intl.formatMessage(m.bankCard) : intl.formatMessage(m.bankDebit, { method: offer.method })}
                  </label>
                ))}
              </div>
              <p className="muted small" id="bank-one-time">{intl.formatMessage(m.bankOneTime)}</p>
          </>
        )}
        {byBank ? (
          <Suspense fallback={<span className="spinner dark" aria-hidden />}>
            <BankDebitFields offer={offer} values={bank} errors={errors} onChange={setBankValue} />
          </Suspense>
        ) : (
          <>
          <Field id="f-cardNumber" label={intl.formatMessage(m.cardNumber)} error={t(errors.cardNumber)}>
            {(aria) => (
              <div className="card-input">
                <input {...aria} inputMode="numeric" autoComplete="cc-number" placeholder="0000 0000 0000 0000"
                  maxLength={layout.maxLength} value={values.cardNumber}
                  onChange={(e) => set('cardNumber', formatCardNumber(e.target.value, layout))} />
                <span className={`brand brand-${brand}`} aria-live="polite" data-brand={brand}>
                  {brand !== 'unknown' && (
                    <span>
                      <span className="sr-only">{intl.formatMessage(m.cardType)}: </span>
                      {brandName(brand, rules)}
                    </span>
                  )}
                </span>
              </div>
            )}
          </Field>
          <div className="grid">
            <Field id="f-expiry" label={intl.formatMessage(m.expiry)} error={t(errors.expiry)}>
              {(aria) => (
                <input {...aria} inputMode="numeric" autoComplete="cc-exp" placeholder={intl.formatMessage(m.expiryPlaceholder)}
                  maxLength={EXPIRY_MAX_LENGTH} value={values.expiry}
                  onChange={(e) => set('expiry', formatExpiry(e.target.value, values.expiry))} />
              )}
            </Field>
            <Field id="f-cvv" label={intl.formatMessage(m.cvv)} error={t(errors.cvv)}
              hint={intl.formatMessage(m.cvvHint, { digits: layout.cvvLengths.length > 1 && layout.brand === 'unknown' ? '3–4' : String(layout.cvvLength) })}>
              {(aria) => (
                <input {...aria} inputMode="numeric" autoComplete="cc-csc" type="password"
                  maxLength={Math.max(...layout.cvvLengths)} value={values.cvv}
                  onChange={(e) => set('cvv', e.target.value.replace(/\D/g, ''))} />
              )}
            </Field>
          </div>
          <Field id="f-holderName" label={intl.formatMessage(m.holderName)} error={t(errors.holderName)}>
            {(aria) => <input {...aria} autoComplete="cc-name" value={values.holderName} onChange={(e) => set('holderName', e.target.value)} />}
          </Field>
          <label className="check">
            <input type="checkbox" checked={values.notCardholder} onChange={(e) => set('notCardholder', e.target.checked)} />
            <span>{intl.formatMessage(m.notCardholder)}</span>
          </label>
          {values.notCardholder && (
            <div className="grid doc">
              <Field id="f-holderIdType" label={intl.formatMessage(m.holderIdType)} error={t(errors.holderIdType)}>
                {(aria) => (
                  <select {...aria} value={values.holderIdType} onChange={(e) => set('holderIdType', e.target.value)}>
                    {docTypes.map((d) => <option key={d} value={d}>{d}</option>)}
                  </select>
                )}
              </Field>
              <Field id="f-holderIdNumber" label={intl.formatMessage(m.holderIdNumber)} error={t(errors.holderIdNumber)}>
                {(aria) => <input {...aria} inputMode="numeric" value={values.holderIdNumber} onChange={(e) => set('holderIdNumber', e.target.value)} />}
              </Field>
            </div>
          )}
          </>
        )}
      </fieldset>

      <div className="submit-area">
        {salesEnded && <p className="alert" role="alert" data-testid="sales-ended">{intl.formatMessage(m.salesEnded)}</p>}
        {failure && (
          <div className="alert" role="alert" tabIndex={-1} ref={summaryRef} data-testid="form-error">
            {failure.error.key === 'cardNotAllowed' && <strong>{intl.formatMessage(m.cardNotAllowedTitle)}</strong>}
            <p>{failure.text ?? t(failure.error)}</p>
          </div>
        )}
        <button type="submit" className="donate-button" disabled={submitting || salesEnded}>
          {submitting ? (
            <>
              <span className="spinner" aria-hidden />
              {intl.formatMessage(byBank ? m.bankRedirecting : m.submitting)}
            </>
          ) : (
            submitLabel
          )}
        </button>
        <p className="secure">
          <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden fill="none" stroke="currentColor" strokeWidth="2">
            <rect x="4" y="11" width="16" height="10" rx="2" />
            <path d="M8 11V7a4 4 0 0 1 8 0v4" />
          </svg>
          {intl.formatMessage(byBank ? m.bankSecure : m.secure)}
        </p>
      </div>
    </form>
  );
}

const GENDERS = [['female', m.genderFemale], ['male', m.genderMale], ['other', m.genderOther]] as const;

function ExtraField({ field, value, error, onChange, chooseLabel }: {
  field: PublicCampaign['form_fields'][number] & { key: string };
  value: string;
  error?: string;
  chooseLabel: string;
  onChange: (v: string) => void;
}) {
  const intl = useIntl();
  const id = `f-${field.key}`;
  const cls = `${field.width === 'half' ? 'half' : 'full'} ${field.hide_on_mobile ? 'hide-mobile' : ''}`;
  const label = field.label || field.title;
  if (field.type === 'checkbox') {
    return (
      <label className={`check ${cls}`}>
        <input id={id} type="checkbox" checked={value === 'true'} aria-invalid={Boolean(error)} onChange={(e) => onChange(String(e.target.checked))} />
        <span>{label}{error && <span className="error"> — {error}</span>}</span>
      </label>
    );
  }
  const options: [string, string][] = field.type === 'gender' && !field.options?.length
    ? GENDERS.map(([v, label]) => [v, intl.formatMessage(label)])
    : (field.options ?? []).map((o) => [o, o]);
  return (
    <Field id={id} label={label} error={error} className={cls}>
      {(aria) =>
        field.type === 'textarea' ? (
          <textarea {...aria} rows={3} maxLength={2000} value={value} onChange={(e) => onChange(e.target.value)} />
        ) : field.type === 'select_options' || field.type === 'gender' ? (
          <select {...aria} value={value} onChange={(e) => onChange(e.target.value)}>
            <option value="">{chooseLabel}</option>
            {options.map(([v, label]) => <option key={v} value={v}>{label}</option>)}
          </select>
        ) : (
          <input {...aria}
            type={field.type === 'birthday' ? 'date' : field.type === 'alt_email' ? 'email' : /phone/.test(field.type) ? 'tel' : 'text'}
            maxLength={200} value={value} onChange={(e) => onChange(e.target.value)} />
        )
      }
    </Field>
  );
}
