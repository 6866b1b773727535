import { Checkbox, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ApiError } from '../../api/client';
import { FormModal } from '../../components/FormModal';
import type { CardRule } from '../../donate/lib/brand';
import { UPGRADE_PERIODS } from '../campaigns/api';
import type { DonationEdit, Donor, Reason, Upgrade } from './api';
import { checkCard, type CardErrors, type CardValues } from './card';
import { CardFields, DOC_TYPES } from './CardFields';


/** The text as a positive number with at most two decimals (a comma taken as the decimal point), or undefined. */
const positiveDecimal = (text: string) => {
  const v = text.trim().replace(',', '.');
  return /^\d+(\.\d{1,2})?$/.test(v) && Number(v) > 0 ? v : undefined;
};

const fieldError = (e: unknown, field: string) => (e instanceof ApiError ? e.fields[field] : undefined);

export function PauseDialog({ opened, onClose, reasons, defaultReason, onConfirm }: {
  opened: boolean; onClose: () => void; reasons: Reason[]; defaultReason: string; onConfirm: (reason: string) => Promise<void>;
}) {
  const intl = useIntl();
  const [reason, setReason] = useState<string | null>(null);
  const value = reason ?? (reasons.some((r) => r.code === defaultReason) ? defaultReason : reasons[0]?.code ?? null);
  return (
    <FormModal opened={opened} onClose={() => { setReason(null); onClose(); }}
      title={<FormattedMessage id="donation.pause.title" defaultMessage="Pausar donación" />}
      subtitle={<FormattedMessage id="donation.pause.subtitle" defaultMessage="No se cobrará hasta que la reanudes." />}
      confirm={<FormattedMessage id="donation.pause.confirm" defaultMessage="Pausar" />}
      submit={async () => { if (!value) return false; await onConfirm(value); return true; }}>
      <Select label={intl.formatMessage({ id: 'donation.pause.reason', defaultMessage: 'Motivo de la pausa' })} data={reasons.map((r) => ({ value: r.code, label: r.label }))}
        value={value} onChange={setReason} allowDeselect={false} comboboxProps={{ withinPortal: true }} />
    </FormModal>
  );
}

const LAST_DAY = 'last';
const DAYS = Array.from({ length: 31 }, (_, i) => String(i + 1));

/** Edits the amount and, for a monthly donation, the collect day (1–31 or the last day of the month). */
export function EditDonationDialog({ opened, onClose, current, currency, collectDay, monthly, onConfirm }: {
  opened: boolean; onClose: () => void; current: string; currency: string;
  /** null: the last day of the month. */
  collectDay: number | null; monthly: boolean; onConfirm: (edit: DonationEdit) => Promise<void>;
}) {
  const intl = useIntl();
  const [value, setValue] = useState(current);
  const initialDay = collectDay === null ? LAST_DAY : String(collectDay);
  const [day, setDay] = useState(initialDay);
  const [err, setErr] = useState<string>();
  const lastDay = intl.formatMessage({ id: 'donation.field.lastDay', defaultMessage: 'Último día del mes' });
  return (
    <FormModal opened={opened} onClose={onClose}
      title={<FormattedMessage id="donation.edit.title" defaultMessage="Editar donación" />}
      subtitle={<FormattedMessage id="donation.edit.subtitle" defaultMessage="Los cambios se aplican desde el próximo cobro; un período ya cobrado no se vuelve a cobrar." />}
      confirm={<FormattedMessage id="common.save" defaultMessage="Guardar" />}
      submit={async () => {
        const v = positiveDecimal(value);
        if (!v) { setErr(intl.formatMessage({ id: 'donation.amount.invalid', defaultMessage: 'Ingresa un monto válido.' })); return false; }
        setErr(undefined);
        const edit: DonationEdit = {};
        if (v !== current) edit.amount = v;
        if (monthly && day !== initialDay) edit.collect_day = day === LAST_DAY ? null : Number(day);
        if (Object.keys(edit).length > 0) await onConfirm(edit);
        return true;
      }}>
      <TextInput label={intl.formatMessage({ id: 'donation.amount.label', defaultMessage: 'Monto mensual ({currency})' }, { currency })} inputMode="decimal"
        value={value} onChange={(e) => setValue(e.currentTarget.value)} error={err} data-autofocus />
      {monthly && (
        <Select label={intl.formatMessage({ id: 'donation.field.collectDay', defaultMessage: 'Día de cobro' })}
          description={intl.formatMessage({ id: 'donation.edit.collectDayHint', defaultMessage: 'Si el nuevo día ya pasó este mes y el mes aún no se cobró, se cobra hoy.' })}
          data={[...DAYS.map((d) => ({ value: d, label: d })), { value: LAST_DAY, label: lastDay }]}
          value={day} onChange={(v) => v && setDay(v)} allowDeselect={false} comboboxProps={{ withinPortal: true }} />
      )}
    </FormModal>
  );
}

export function UpgradeDialog({ opened, onClose, upgrade, onConfirm }: {
  opened: boolean; onClose: () => void; upgrade: Upgrade | null; onConfirm: (b: { percentage: string; period: number; auto: boolean }) => Promise<void>;
}) {
  const intl = useIntl();
  const [percentage, setPercentage] = useState(upgrade?.percentage.replace(/\.00$/, '') ?? '10');
  const [period, setPeriod] = useState(String(upgrade?.period ?? 12));
  const [auto, setAuto] = useState(upgrade?.auto ?? true);
  const [err, setErr] = useState<string>();
  const periodLabel = (m: number) => m === 12
    ? intl.formatMessage({ id: 'upgrade.period.year', defaultMessage: 'Cada año' })
    : intl.formatMessage({ id: 'upgrade.period.months', defaultMessage: '{n, plural, one {Cada mes} other {Cada # meses}}' }, { n: m });
  return (
    <FormModal opened={opened} onClose={onClose}
      title={upgrade ? <FormattedMessage id="upgrade.edit" defaultMessage="Editar incremento periódico" /> : <FormattedMessage id="upgrade.add" defaultMessage="Agregar incremento periódico" />}
      subtitle={<FormattedMessage id="upgrade.subtitle" defaultMessage="El monto sube automáticamente en el porcentaje elegido cada período." />}
      confirm={<FormattedMessage id="common.save" defaultMessage="Guardar" />}
      submit={async () => {
        const p = positiveDecimal(percentage);
        if (!p) { setErr(intl.formatMessage({ id: 'upgrade.invalid', defaultMessage: 'Ingresa un porcentaje válido (hasta dos decimales).' })); return false; }
        setErr(undefined);
        try {
          await onConfirm({ percentage: p, period: Number(period), auto });
        } catch (e) {
          const f = fieldError(e, 'percentage');
          if (f) { setErr(f); return false; }
          throw e;
        }
        return true;
      }}>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <TextInput label={intl.formatMessage({ id: 'upgrade.percentage', defaultMessage: 'Porcentaje' })} rightSection="%" inputMode="decimal"
          value={percentage} onChange={(e) => setPercentage(e.currentTarget.value)} error={err} />
        <Select label={intl.formatMessage({ id: 'upgrade.period', defaultMessage: 'Período' })} data={UPGRADE_PERIODS.map((m) => ({ value: String(m), label: periodLabel(m) }))}
          value={period} onChange={(v) => v && setPeriod(v)} allowDeselect={false} />
      </SimpleGrid>
      <Checkbox label={intl.formatMessage({ id: 'upgrade.auto', defaultMessage: 'Aplicar automáticamente' })} checked={auto} onChange={(e) => setAuto(e.currentTarget.checked)} />
    </FormModal>
  );
}

export function ConfirmDialog({ opened, onClose, title, body, confirm, destructive, onConfirm }: {
  opened: boolean; onClose: () => void; title: ReactNode; body: ReactNode; confirm: ReactNode; destructive?: boolean; onConfirm: () => Promise<void>;
}) {
  return (
    <FormModal opened={opened} onClose={onClose} title={title} confirm={confirm} destructive={destructive} submit={async () => { await onConfirm(); return true; }}>
      <Text size="sm">{body}</Text>
    </FormModal>
  );
}

type DonorFields = Pick<Donor, 'first_name' | 'last_name' | 'email' | 'phone' | 'cellphone' | 'uid_type' | 'uid_number' | 'street' | 'city' | 'state' | 'zipcode'>;

export function DonorDialog({ opened, onClose, donor, onConfirm }: { opened: boolean; onClose: () => void; donor: Donor; onConfirm: (d: DonorFields) => Promise<void> }) {
  const intl = useIntl();
  const [v, setV] = useState<DonorFields>({ first_name: donor.first_name, last_name: donor.last_name, email: donor.email, phone: donor.phone, cellphone: donor.cellphone,
    uid_type: donor.uid_type, uid_number: donor.uid_number, street: donor.street, city: donor.city, state: donor.state, zipcode: donor.zipcode });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const f = (k: keyof DonorFields, label: string) => (
    <TextInput label={label} value={v[k]} onChange={(e) => { const val = e.currentTarget.value; setV((p) => ({ ...p, [k]: val })); }} error={errors[k]} />
  );
  return (
    <FormModal opened={opened} onClose={onClose} title={<FormattedMessage id="donor.edit" defaultMessage="Editar donante" />} confirm={<FormattedMessage id="common.save" defaultMessage="Guardar" />}
      submit={async () => {
        try { await onConfirm(v); setErrors({}); return true; } catch (e) { if (e instanceof ApiError && Object.keys(e.fields).length) { setErrors(e.fields); } throw e; }
      }}>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        {f('first_name', intl.formatMessage({ id: 'donor.firstName', defaultMessage: 'Nombre' }))}
        {f('last_name', intl.formatMessage({ id: 'donor.lastName', defaultMessage: 'Apellido' }))}
        {f('email', intl.formatMessage({ id: 'donor.email', defaultMessage: 'Correo electrónico' }))}
        {f('cellphone', intl.formatMessage({ id: 'donor.cellphone', defaultMessage: 'Celular' }))}
        <Select label={intl.formatMessage({ id: 'donor.uidType', defaultMessage: 'Tipo de documento' })} data={DOC_TYPES} value={v.uid_type || null} onChange={(x) => setV((p) => ({ ...p, uid_type: x ?? '' }))} />
        {f('uid_number', intl.formatMessage({ id: 'donor.uidNumber', defaultMessage: 'Número de documento' }))}
        {f('street', intl.formatMessage({ id: 'donor.street', defaultMessage: 'Dirección' }))}
        {f('city', intl.formatMessage({ id: 'donor.city', defaultMessage: 'Ciudad' }))}
      </SimpleGrid>
    </FormModal>
  );
}

/** The card-change dialog; rules are the brands the organisation's gateway account takes (the static table without them). */
export function CardDialog({ opened, onClose, donor, rules, onConfirm }: {
  opened: boolean; onClose: () => void; donor: Pick<Donor, 'uid_type' | 'uid_number'>; rules?: CardRule[]; onConfirm: (v: CardValues) => Promise<void>;
}) {
  const [v, setV] = useState<CardValues>({ number: '', expiry: '', cvv: '', holder: '', idType: donor.uid_type || 'DNI', idNumber: donor.uid_number });
  const [errors, setErrors] = useState<CardErrors>({});
  const set = (k: keyof CardValues, val: string) => setV((p) => ({ ...p, [k]: val }));
  return (
    <FormModal opened={opened} onClose={() => { setV((p) => ({ ...p, number: '', cvv: '', expiry: '' })); setErrors({}); onClose(); }}
      title={<FormattedMessage id="card.title" defaultMessage="Cambiar medio de pago" />}
      subtitle={<FormattedMessage id="card.subtitle" defaultMessage="Los datos de la tarjeta van directo a la pasarela de pago; Aporta solo guarda la marca y los últimos 4 dígitos." />}
      confirm={<FormattedMessage id="card.confirm" defaultMessage="Guardar tarjeta" />}
      submit={async () => {
        const e = checkCard(v, rules);
        setErrors(e);
        if (Object.keys(e).length) return false;
        await onConfirm(v);
        setV((p) => ({ ...p, number: '', cvv: '', expiry: '' }));
        return true;
      }}>
      <CardFields v={v} set={set} errors={errors} rules={rules} />
    </FormModal>
  );
}
