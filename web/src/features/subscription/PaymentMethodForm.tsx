import { Alert, Anchor, Checkbox, Group, Paper, Radio, Select, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { errorText } from '../../api/client';
import { Button } from '../../components/variants';
import { checkCard, tokenizeCard, type CardErrors, type CardValues } from '../donations/card';
import { CardFields, DOC_TYPES } from '../donations/CardFields';
import { cbuDigits, validateCard, validateCbu, validateTransfer, type PaymentModeType, type SubscriptionPage } from './api';

const modeLabels = defineMessages({
  card: { id: 'checkout.mode.card', defaultMessage: 'Tarjeta de crédito o débito' },
  cbu: { id: 'checkout.mode.cbu', defaultMessage: 'Débito directo (CBU)' },
  bank_transfer: { id: 'checkout.mode.transfer', defaultMessage: 'Transferencia bancaria' },
});

export const ModeLabel = ({ mode }: { mode: string }) => (mode in modeLabels ? <FormattedMessage {...modeLabels[mode as PaymentModeType]} /> : <>{mode}</>);

/**
 * §4 "Payment flow": the selector of the country's payment modes, then the chosen form; "Elegir otro" goes back to the
 * selector. Each form validates its method with the server (a card only after the PLATFORM's tokeniser turned it into a
 * token) and hands the authorization to `onAuthorized`, which buys the plan or changes the method.
 */
export function PaymentMethodForm({ planCode, modes, tokenizer, country, submitLabel, onAuthorized }: {
  planCode: string; modes: string[]; tokenizer: SubscriptionPage['tokenizer']; country: string; submitLabel: ReactNode;
  onAuthorized: (type: PaymentModeType, authorization: string) => Promise<void>;
}) {
  const available = (['card', 'cbu', 'bank_transfer'] as const).filter((m) => modes.includes(m));
  const [mode, setMode] = useState<PaymentModeType | null>(available.length === 1 ? available[0]! : null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const run = async (authorize: () => Promise<string | null>) => {
    setPending(true);
    setError(null);
    try {
      const id = await authorize();
      if (id && mode) await onAuthorized(mode, id);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setPending(false);
    }
  };

  if (!mode) {
    return (
      <Radio.Group label={<FormattedMessage id="checkout.mode.title" defaultMessage="¿Cómo quieres pagar?" />} value={null} onChange={(v) => setMode(v as PaymentModeType)}>
        <Stack gap="sm" mt="xs">
          {available.map((m) => (
            <UnstyledButton key={m} onClick={() => setMode(m)} data-testid={`mode-${m}`}>
              <Paper withBorder radius="md" p="md">
                <Group gap="sm" wrap="nowrap">
                  <Radio value={m} readOnly aria-label={m} tabIndex={-1} />
                  <Text fw={600}><ModeLabel mode={m} /></Text>
                </Group>
              </Paper>
            </UnstyledButton>
          ))}
        </Stack>
      </Radio.Group>
    );
  }

  const back = available.length > 1 && (
    <Anchor component="button" type="button" size="sm" onClick={() => { setMode(null); setError(null); }}>
      <FormattedMessage id="checkout.chooseOther" defaultMessage="Elegir otro medio de pago" />
    </Anchor>
  );
  const foot = (
    <>
      {error && <Alert color="red" variant="light" role="alert">{error}</Alert>}
      <Group justify="space-between" wrap="wrap">
        {back || <span />}
        <Button type="submit" loading={pending}>{submitLabel}</Button>
      </Group>
    </>
  );
  return (
    <Stack gap="md">
      <Text fw={600}><ModeLabel mode={mode} /></Text>
      {mode === 'card' && <CardForm tokenizer={tokenizer} planCode={planCode} run={run} foot={foot} />}
      {mode === 'cbu' && <CbuForm run={run} foot={foot} />}
      {mode === 'bank_transfer' && <TransferForm planCode={planCode} country={country} run={run} foot={foot} />}
    </Stack>
  );
}

type Run = (authorize: () => Promise<string | null>) => Promise<void>;

function CardForm({ tokenizer, planCode, run, foot }: { tokenizer: SubscriptionPage['tokenizer']; planCode: string; run: Run; foot: ReactNode }) {
  const [v, setV] = useState<CardValues>({ number: '', expiry: '', cvv: '', holder: '', idType: 'DNI', idNumber: '' });
  const [errors, setErrors] = useState<CardErrors>({});
  const set = (k: keyof CardValues, val: string) => setV((p) => ({ ...p, [k]: val }));
  return (
    <form noValidate data-testid="card-form" onSubmit={(e) => {
      e.preventDefault();
      const found = checkCard(v);
      setErrors(found);
      if (Object.keys(found).length) return;
      void run(async () => {
        const token = await tokenizeCard(v, tokenizer);
        const { authorization } = await validateCard({
          plan_code: planCode, token: token.id, payment_method_id: token.payment_method_id, cardholder_name: v.holder.trim(), cardholder_uid: v.idNumber,
        });
        setV((p) => ({ ...p, number: '', cvv: '', expiry: '' }));
        return authorization.id;
      });
    }}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          <FormattedMessage id="checkout.card.note" defaultMessage="Los datos de la tarjeta van directo a la pasarela de pago de Aporta; solo guardamos la marca y los últimos 4 dígitos." />
        </Text>
        <CardFields v={v} set={set} errors={errors} />
        {foot}
      </Stack>
    </form>
  );
}

function CbuForm({ run, foot }: { run: Run; foot: ReactNode }) {
  const intl = useIntl();
  const [cbu, setCbu] = useState('');
  const [accept, setAccept] = useState(false);
  const [errors, setErrors] = useState<{ cbu?: string; accept?: string }>({});
  return (
    <form noValidate data-testid="cbu-form" onSubmit={(e) => {
      e.preventDefault();
      const found: typeof errors = {};
      const d = cbuDigits(cbu);
      if (!d) found.cbu = intl.formatMessage({ id: 'checkout.cbu.required', defaultMessage: 'Ingresa el CBU.' });
      else if (d.length !== 22) found.cbu = intl.formatMessage({ id: 'checkout.cbu.invalid', defaultMessage: 'El CBU tiene 22 dígitos.' });
      if (!accept) found.accept = intl.formatMessage({ id: 'checkout.cbu.mandateRequired', defaultMessage: 'Acepta la autorización de débito directo.' });
      setErrors(found);
      if (Object.keys(found).length) return;
      void run(async () => (await validateCbu({ cbu: d, accept_mandate: true })).authorization.id);
    }}>
      <Stack gap="md">
        <TextInput label={intl.formatMessage({ id: 'checkout.cbu.label', defaultMessage: 'CBU de la cuenta a debitar' })} inputMode="numeric" maxLength={30}
          description={intl.formatMessage({ id: 'checkout.cbu.hint', defaultMessage: '22 dígitos. Verificamos sus dígitos de control.' })}
          value={cbu} onChange={(e) => setCbu(e.currentTarget.value)} error={errors.cbu} />
        <Checkbox checked={accept} onChange={(e) => setAccept(e.currentTarget.checked)} error={errors.accept}
          label={intl.formatMessage({ id: 'checkout.cbu.mandate', defaultMessage: 'Autorizo a Aporta a debitar de esta cuenta el precio del plan en cada período, hasta que cancele la suscripción.' })} />
        {foot}
      </Stack>
    </form>
  );
}

function TransferForm({ planCode, country, run, foot }: { planCode: string; country: string; run: Run; foot: ReactNode }) {
  const intl = useIntl();
  const [v, setV] = useState({ name: '', email: '', uid_type: 'DNI', uid_number: '', cellphone: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof typeof v, string>>>({});
  const set = (k: keyof typeof v) => (e: { currentTarget: { value: string } }) => { const val = e.currentTarget.value; setV((p) => ({ ...p, [k]: val })); };
  const required = intl.formatMessage({ id: 'card.required', defaultMessage: 'Este campo es requerido' });
  return (
    <form noValidate data-testid="transfer-form" onSubmit={(e) => {
      e.preventDefault();
      const found: typeof errors = {};
      if (!v.name.trim()) found.name = required;
      if (!v.email.trim()) found.email = required;
      else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email.trim())) found.email = intl.formatMessage({ id: 'checkout.transfer.emailInvalid', defaultMessage: 'El correo electrónico no es válido.' });
      if (v.uid_number.replace(/\D/g, '').length < 3) found.uid_number = intl.formatMessage({ id: 'checkout.transfer.uidInvalid', defaultMessage: 'Al menos 3 dígitos.' });
      if (!v.cellphone.trim()) found.cellphone = required;
      setErrors(found);
      if (Object.keys(found).length) return;
      void run(async () => (await validateTransfer({
        plan_code: planCode, name: v.name, email: v.email, uid_type: v.uid_type, uid_number: v.uid_number, cellphone: { country, number: v.cellphone },
      })).authorization.id);
    }}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          <FormattedMessage id="checkout.transfer.note" defaultMessage="Te enviaremos los datos para transferir. El plan se activa cuando registremos tu transferencia." />
        </Text>
        <TextInput label={intl.formatMessage({ id: 'checkout.transfer.name', defaultMessage: 'Nombre de quien paga' })} value={v.name} onChange={set('name')} error={errors.name} />
        <TextInput label={intl.formatMessage({ id: 'checkout.transfer.email', defaultMessage: 'Correo electrónico' })} type="email" value={v.email} onChange={set('email')} error={errors.email} />
        <SimpleGrid cols={2} spacing="sm">
          <Select label={intl.formatMessage({ id: 'card.idType', defaultMessage: 'Documento del titular' })} data={DOC_TYPES} value={v.uid_type} onChange={(x) => setV((p) => ({ ...p, uid_type: x ?? 'DNI' }))} allowDeselect={false} />
          <TextInput label={intl.formatMessage({ id: 'checkout.transfer.uid', defaultMessage: 'Número de documento' })} inputMode="numeric" value={v.uid_number} onChange={set('uid_number')} error={errors.uid_number} />
        </SimpleGrid>
        <TextInput label={intl.formatMessage({ id: 'checkout.transfer.cellphone', defaultMessage: 'Celular' })} inputMode="tel" value={v.cellphone} onChange={set('cellphone')} error={errors.cellphone} />
        {foot}
      </Stack>
    </form>
  );
}
