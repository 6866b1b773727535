import '@mantine/dates/styles.css';
import { DateInput, DatesProvider, MonthPickerInput } from '@mantine/dates';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import 'dayjs/locale/es';
import 'dayjs/locale/pt';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { Locale } from '../i18n/locale';

dayjs.extend(customParseFormat);

/** How each language writes a day: day first in Spanish and Portuguese. */
const DAY_FORMAT: Record<Locale, string> = { es: 'DD/MM/YYYY', pt: 'DD/MM/YYYY', en: 'MM/DD/YYYY' };
const TIME = ' HH:mm';

const dayFormat = (locale: string) => DAY_FORMAT[locale as Locale] ?? DAY_FORMAT.es;

/** The calendars' language (month and day names) and first weekday, from the page's locale. */
export function LocaleDates({ locale, children }: { locale: Locale; children: ReactNode }) {
  return <DatesProvider settings={{ locale, firstDayOfWeek: locale === 'en' ? 0 : 1 }}>{children}</DatesProvider>;
}

/** Reads what a person typed in their language's format, strictly (31/02 is no date); null if it is not one. */
const parser = (format: string, out: string) => (typed: string) => {
  const d = dayjs(typed.trim(), format, true);
  return d.isValid() ? d.format(out) : null;
};

interface FieldProps {
  /** None for a month shown inside a group that names it: the button's own text (the month) is its name. */
  label?: ReactNode;
  error?: ReactNode;
  w?: number;
}

/** The clear (×) button's name: it has no text of its own. */
function useClearButton() {
  const intl = useIntl();
  return { 'aria-label': intl.formatMessage({ id: 'dates.clear', defaultMessage: 'Borrar la fecha' }) };
}

/** A day (`YYYY-MM-DD`, as the API takes it), typed or picked in the reader's format. */
export function DateField({ value, onChange, minDate, maxDate, ...field }: FieldProps & {
  value: string | undefined;
  onChange: (day: string | undefined) => void;
  minDate?: string;
  maxDate?: string;
}) {
  const { locale } = useIntl();
  const clearButtonProps = useClearButton();
  const format = dayFormat(locale);
  return (
    <DateInput
      clearButtonProps={clearButtonProps}
      {...field}
      value={value ?? null}
      onChange={(v) => onChange(v ?? undefined)}
      valueFormat={format}
      dateParser={parser(format, 'YYYY-MM-DD')}
      placeholder={format.toLowerCase()}
      minDate={minDate}
      maxDate={maxDate}
      clearable
    />
  );
}

/** An instant (ISO 8601), shown, typed and picked as the reader's local day and time. */
export function DateTimeField({ value, onChange, ...field }: FieldProps & { value: string | null; onChange: (iso: string | null) => void }) {
  const { locale } = useIntl();
  const clearButtonProps = useClearButton();
  const format = dayFormat(locale) + TIME;
  return (
    <DateInput
      clearButtonProps={clearButtonProps}
      {...field}
      withTime
      value={value ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : null}
      onChange={(v) => onChange(v ? dayjs(v).toISOString() : null)}
      valueFormat={format}
      dateParser={parser(format, 'YYYY-MM-DD HH:mm:ss')}
      placeholder={format.toLowerCase()}
      clearable
    />
  );
}

/** A month (`YYYY-MM`), picked by name in the reader's language. */
export function MonthField({ value, onChange, max, ...field }: FieldProps & { value: string; max?: string; onChange: (month: string) => void }) {
  return (
    <MonthPickerInput
      {...field}
      value={`${value}-01`}
      onChange={(v) => v && onChange(v.slice(0, 7))}
      maxDate={max ? `${max}-01` : undefined}
      valueFormat="MMMM YYYY"
    />
  );
}
