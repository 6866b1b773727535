import { Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useIntl } from 'react-intl';
import { brandName, cardLayout, detectBrand, formatCardNumber, type CardRule } from '../../donate/lib/brand';
import { EXPIRY_MAX_LENGTH, formatExpiry } from '../../donate/lib/expiry';
import type { CardErrors, CardValues } from './card';

export const DOC_TYPES = ['DNI', 'CUIL', 'CUIT', 'CI', 'CC', 'CE', 'LC', 'LE', 'NIT', 'RFC', 'RUC', 'RUT', 'Otro'];

/**
 * The card inputs (number with its brand, expiry, security code, holder and holder's document), shared by the
 * donation's card change and the plan checkout. The values go to the gateway's tokeniser only. Rules are the
 * brands the gateway account takes (the static table without them).
 */
export function CardFields({ v, set, errors, rules }: {
  v: CardValues; set: (k: keyof CardValues, val: string) => void; errors: CardErrors; rules?: CardRule[];
}) {
  const intl = useIntl();
  const brand = detectBrand(v.number, rules);
  const layout = cardLayout(brand, rules);
  const msg = (k: keyof CardValues) => {
    const e = errors[k];
    if (!e) return undefined;
    if (e === 'required') return intl.formatMessage({ id: 'card.required', defaultMessage: 'Este campo es requerido' });
    if (e === 'expired') return intl.formatMessage({ id: 'card.expired', defaultMessage: 'La tarjeta está vencida' });
    if (e === 'type') return intl.formatMessage({ id: 'card.type', defaultMessage: 'No reconocemos el tipo de tarjeta' });
    return intl.formatMessage({ id: 'card.invalid', defaultMessage: 'El dato no es válido' });
  };
  return (
    <>
      <TextInput label={intl.formatMessage({ id: 'card.number', defaultMessage: 'Número de tarjeta' })} inputMode="numeric" autoComplete="cc-number"
        value={v.number} maxLength={layout.maxLength} onChange={(e) => set('number', formatCardNumber(e.currentTarget.value, cardLayout(detectBrand(e.currentTarget.value, rules), rules)))}
        error={msg('number')} rightSection={brand !== 'unknown' ? <Text size="xs" fw={700} data-brand={brand}>{brandName(brand, rules)}</Text> : null} rightSectionWidth={90} />
      <SimpleGrid cols={2} spacing="sm">
        <TextInput label={intl.formatMessage({ id: 'card.expiry', defaultMessage: 'Vencimiento' })} placeholder="MM / AA" inputMode="numeric" autoComplete="cc-exp" maxLength={EXPIRY_MAX_LENGTH}
          value={v.expiry} onChange={(e) => set('expiry', formatExpiry(e.currentTarget.value, v.expiry))} error={msg('expiry')} />
        <TextInput label={intl.formatMessage({ id: 'card.cvv', defaultMessage: 'Código de seguridad' })} inputMode="numeric" autoComplete="cc-csc" maxLength={4}
          value={v.cvv} onChange={(e) => set('cvv', e.currentTarget.value.replace(/\D/g, ''))} error={msg('cvv')} />
      </SimpleGrid>
      <TextInput label={intl.formatMessage({ id: 'card.holder', defaultMessage: 'Nombre del titular (como figura en la tarjeta)' })} autoComplete="cc-name" value={v.holder} onChange={(e) => set('holder', e.currentTarget.value)} error={msg('holder')} />
      <SimpleGrid cols={2} spacing="sm">
        <Select label={intl.formatMessage({ id: 'card.idType', defaultMessage: 'Documento del titular' })} data={DOC_TYPES} value={v.idType} onChange={(x) => set('idType', x ?? 'DNI')} allowDeselect={false} />
        <TextInput label={intl.formatMessage({ id: 'card.idNumber', defaultMessage: 'Número de documento del titular' })} inputMode="numeric" value={v.idNumber} onChange={(e) => set('idNumber', e.currentTarget.value)} error={msg('idNumber')} />
      </SimpleGrid>
    </>
  );
}
