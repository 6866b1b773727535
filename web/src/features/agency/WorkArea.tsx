import { Alert, Badge, Container, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { defineMessages, FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { ApiError, errorText } from '../../api/client';
import type { Campaign } from '../../api/types.gen';
import { SectionCard } from '../../components/SectionCard';
import { showToast } from '../../components/Toasts';
import { Button } from '../../components/variants';
import { nameOf } from '../../i18n/nameOf';
import { cleanNumber } from '../../donate/lib/brand';
import { formatExpiry, parseExpiry } from '../../donate/lib/expiry';
import { requestCardToken } from '../../donate/lib/tokenizer';
import { ModeBadge } from '../agencies/labels';
import { AcquisitionActions } from './AcquisitionActions';
import { acquire, acquisitionsQuery, agencyMeQuery, type AgencyMe } from './api';

/** /agency: the agency's work area, phone and tablet first — sign a donor up, then follow the team's sign-ups. */
export function WorkArea() {
  const { data: me } = useSuspenseQuery(agencyMeQuery());
  const practice = me.agency.mode !== 'live';
  return (
    <Container size="sm" px="sm" py="md">
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap">
          <Title order={1} size="h3">
            {me.agency.agency_name}
          </Title>
          <ModeBadge mode={me.agency.mode} />
        </Group>
        {practice && (
          <Alert color="yellow" role="status" title={<FormattedMessage id="agency.practiceTitle" defaultMessage="Modo práctica" />}>
            <FormattedMessage id="agency.practiceBody" defaultMessage="Las altas de este equipo son de práctica: no se cobran ni pasan a la organización." />
          </Alert>
        )}
        {me.permissions.includes('acquire') ? (
          <SignUpForm me={me} />
        ) : (
          <Alert color="gray" role="status">
            <FormattedMessage id="agency.noAcquisition" defaultMessage="La organización no te habilitó para registrar donantes." />
          </Alert>
        )}
        <SignUps me={me} />
      </Stack>
    </Container>
  );
}

interface Form {
  campaign: string;
  amount: string;
  other: string;
  recurrence: '1' | '0';
  email: string;
  first_name: string;
  last_name: string;
  uid_number: string;
  number: string;
  expiry: string;
  cvv: string;
  holder: string;
}

const blank = (campaigns: Campaign[]): Form => ({
  campaign: campaigns[0]?.uuid ?? '', amount: campaigns[0]?.amounts[0]?.decimal ?? '', other: '', recurrence: '1',
  email: '', first_name: '', last_name: '', uid_number: '', number: '', expiry: '', cvv: '', holder: '',
});

function SignUpForm({ me }: { me: AgencyMe }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>(() => blank(me.campaigns));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(() => `agency-${crypto.randomUUID()}`);
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));
  const campaign = me.campaigns.find((c) => c.uuid === form.campaign);
  const required = intl.formatMessage({ id: 'form.required', defaultMessage: 'Este campo es requerido' });

  if (me.campaigns.length === 0)
    return (
      <Alert color="gray" role="status">
        <FormattedMessage id="agency.noCampaigns" defaultMessage="Tu equipo todavía no tiene campañas autorizadas." />
      </Alert>
    );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local: Record<string, string> = {};
    for (const k of ['email', 'first_name', 'last_name', 'number', 'expiry', 'cvv', 'holder'] as const) if (!form[k].trim()) local[k] = required;
    const exp = parseExpiry(form.expiry);
    if (form.expiry && !exp) local.expiry = intl.formatMessage({ id: 'agency.expiryInvalid', defaultMessage: 'Usa el formato MM / AA.' });
    const amount = form.amount === 'other' ? form.other.trim() : form.amount;
    if (!amount) local.amount = required;
    setErrors(local);
    if (Object.keys(local).length > 0 || !exp) return;
    setBusy(true);
    try {
      const digits = cleanNumber(form.number);
      let token = 'practice'; // practice sign-ups never reach the gateway
      let method = '';
      if (me.agency.mode === 'live') {
        const t = await requestCardToken(me.gateway, { number: form.number, cvv: form.cvv, expiry: form.expiry, holderName: form.holder, idType: 'DNI', idNumber: form.uid_number });
        token = t.id;
        method = t.payment_method_id ?? '';
      }
      await acquire({
        campaign: form.campaign, amount, recurrence: Number(form.recurrence), idempotency_key: key,
        donor: { email: form.email.trim(), first_name: form.first_name.trim(), last_name: form.last_name.trim(), uid_type: form.uid_number ? 'DNI' : '', uid_number: form.uid_number.trim() },
        card: { token, method_id: method, bin: digits.slice(0, 6), last_four: digits.slice(-4), expiration_month: exp.month, expiration_year: exp.year, cardholder_name: form.holder.trim() },
      });
      await queryClient.invalidateQueries({ queryKey: ['agency', 'acquisitions'] });
      showToast({ type: 'success', message: intl.formatMessage({ id: 'agency.signedUp', defaultMessage: 'Registramos a {name}.' }, { name: form.first_name.trim() }) });
      setForm({ ...blank(me.campaigns), campaign: form.campaign });
      setKey(`agency-${crypto.randomUUID()}`);
    } catch (e) {
      const fields = e instanceof ApiError ? e.fields : {};
      setErrors(Object.keys(fields).length > 0 ? fields : { form: e instanceof Error && e.message !== 'network' ? errorText(e) : intl.formatMessage({ id: 'agency.cardFailed', defaultMessage: 'No pudimos validar la tarjeta. Revisa los datos.' }) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder radius="lg" p="md" component="form" onSubmit={submit} noValidate aria-labelledby="signup-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="signup-title">
          <FormattedMessage id="agency.signUpTitle" defaultMessage="Registrar donante" />
        </Title>
        <Select
          label={<FormattedMessage id="agency.campaign" defaultMessage="Campaña" />}
          data={me.campaigns.map((c) => ({ value: c.uuid, label: c.title }))}
          value={form.campaign}
          allowDeselect={false}
          onChange={(v) => setForm({ ...blank(me.campaigns), ...form, campaign: v ?? '', amount: me.campaigns.find((c) => c.uuid === v)?.amounts[0]?.decimal ?? '' })}
        />
        {campaign && (
          <>
            <Text size="sm" fw={500} id="amount-label">
              <FormattedMessage id="agency.amount" defaultMessage="Monto" />
            </Text>
            <SegmentedControl
              aria-labelledby="amount-label"
              fullWidth
              value={form.amount}
              onChange={(v) => set('amount', v)}
              data={[
                ...campaign.amounts.map((m) => ({ value: m.decimal, label: m.formatted })),
                ...(campaign.allow_other_amount ? [{ value: 'other', label: intl.formatMessage({ id: 'agency.otherAmount', defaultMessage: 'Otro' }) }] : []),
              ]}
            />
            {form.amount === 'other' && (
              <TextInput label={<FormattedMessage id="agency.otherAmountLabel" defaultMessage="Otro monto" />} inputMode="decimal" value={form.other} onChange={(e) => set('other', e.currentTarget.value)} />
            )}
            {errors.amount && (
              <Text size="xs" c="red.8" role="alert">
                {errors.amount}
              </Text>
            )}
            {campaign.allow_one_time && (
              <SegmentedControl
                aria-label={intl.formatMessage({ id: 'agency.frequency', defaultMessage: 'Frecuencia' })}
                fullWidth
                value={form.recurrence}
                onChange={(v) => set('recurrence', v as Form['recurrence'])}
                data={[
                  { value: '1', label: intl.formatMessage({ id: 'agency.monthly', defaultMessage: 'Mensual' }) },
                  { value: '0', label: intl.formatMessage({ id: 'agency.oneTime', defaultMessage: 'Única' }) },
                ]}
              />
            )}
          </>
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput label={<FormattedMessage id="agency.firstName" defaultMessage="Nombre" />} required autoComplete="off" value={form.first_name} onChange={(e) => set('first_name', e.currentTarget.value)} error={errors.first_name ?? errors['donor.first_name']} />
          <TextInput label={<FormattedMessage id="agency.lastName" defaultMessage="Apellido" />} required autoComplete="off" value={form.last_name} onChange={(e) => set('last_name', e.currentTarget.value)} error={errors.last_name ?? errors['donor.last_name']} />
        </SimpleGrid>
        <TextInput label={<FormattedMessage id="agency.email" defaultMessage="E-mail" />} type="email" required autoComplete="off" value={form.email} onChange={(e) => set('email', e.currentTarget.value)} error={errors.email ?? errors['donor.email']} />
        <TextInput label={<FormattedMessage id="agency.document" defaultMessage="Documento (DNI)" />} inputMode="numeric" autoComplete="off" value={form.uid_number} onChange={(e) => set('uid_number', e.currentTarget.value)} error={errors['donor.uid_number']} />
        <TextInput label={<FormattedMessage id="agency.cardNumber" defaultMessage="Número de tarjeta" />} inputMode="numeric" autoComplete="off" required value={form.number} onChange={(e) => set('number', e.currentTarget.value)} error={errors.number ?? errors.card} />
        <SimpleGrid cols={2}>
          <TextInput label={<FormattedMessage id="agency.expiry" defaultMessage="Vencimiento" />} placeholder="MM / AA" inputMode="numeric" autoComplete="off" required value={form.expiry} onChange={(e) => set('expiry', formatExpiry(e.currentTarget.value, form.expiry))} error={errors.expiry} />
          <TextInput label={<FormattedMessage id="agency.cvv" defaultMessage="Código de seguridad" />} inputMode="numeric" autoComplete="off" required value={form.cvv} onChange={(e) => set('cvv', e.currentTarget.value)} error={errors.cvv} />
        </SimpleGrid>
        <TextInput label={<FormattedMessage id="agency.holder" defaultMessage="Nombre del titular" />} autoComplete="off" required value={form.holder} onChange={(e) => set('holder', e.currentTarget.value)} error={errors.holder} />
        {errors.form && (
          <Alert color="red" role="alert">
            {errors.form}
          </Alert>
        )}
        <Button type="submit" loading={busy} fullWidth>
          <FormattedMessage id="agency.submit" defaultMessage="Registrar donante" />
        </Button>
      </Stack>
    </Paper>
  );
}

const statusColor: Record<string, string> = { practice: 'yellow', pending: 'blue', synced: 'green', voided: 'gray' };

const statusNames = defineMessages({
  practice: { id: 'agency.status.practice', defaultMessage: 'Práctica' },
  pending: { id: 'agency.status.pending', defaultMessage: 'En espera' },
  synced: { id: 'agency.status.synced', defaultMessage: 'Sincronizada' },
  voided: { id: 'agency.status.voided', defaultMessage: 'Anulada' },
});

function StatusBadge({ status }: { status: string }) {
  const intl = useIntl();
  return (
    <Badge color={statusColor[status] ?? 'gray'} variant="light" style={{ flexShrink: 0 }}>
      {nameOf(intl, statusNames, status)}
    </Badge>
  );
}

function SignUps({ me }: { me: AgencyMe }) {
  const { data } = useSuspenseQuery(acquisitionsQuery());
  return (
    <SectionCard id="signups-title" title={<FormattedMessage id="agency.signUps" defaultMessage="Altas del equipo" />}>
      {data.length === 0 ? (
        <Text size="sm" c="dimmed">
          <FormattedMessage id="agency.signUpsEmpty" defaultMessage="Todavía no hay altas." />
        </Text>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {data.map((a) => (
            <Paper key={a.uuid} withBorder radius="md" p="sm" component="li" data-acquisition={a.uuid}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <div>
                  <Text fw={600} size="sm">
                    {a.donor_name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {a.campaign_title} · {a.amount.formatted} ·{' '}
                    {a.recurrence === 1 ? <FormattedMessage id="agency.monthly" defaultMessage="Mensual" /> : <FormattedMessage id="agency.oneTime" defaultMessage="Única" />}
                  </Text>
                  {a.status === 'pending' && a.sync_at && (
                    <Text size="xs" c="dimmed">
                      <FormattedMessage id="agency.syncAt" defaultMessage="Pasa a la organización a las {time}" values={{ time: <FormattedDate value={a.sync_at} timeStyle="short" /> }} />
                    </Text>
                  )}
                </div>
                <StatusBadge status={a.status} />
              </Group>
              <AcquisitionActions a={a} me={me} />
            </Paper>
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}
