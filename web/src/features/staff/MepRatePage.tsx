import { Alert, Group, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState, type FormEvent } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { ApiError } from '../../api/client';
import type { RateEntry } from '../../api/types.gen';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { showToast } from '../../components/Toasts';
import { Button } from '../../components/variants';
import { mepHistoryQuery, overrideMep } from './api';

/** Today in Argentina, as the rate's day is reckoned (YYYY-MM-DD). */
const argentineToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).format(new Date());

const day = (iso: string) => <FormattedDate value={iso} timeZone="UTC" dateStyle="medium" />;

/**
 * /staff/mep: the dollar MEP rate the ARS note shows, its source and day, and the override staff set for a day when the
 * provider is wrong or silent. Each override keeps who set it and why (the history below is its audit log).
 */
export function MepRatePage() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const { data } = useSuspenseQuery(mepHistoryQuery());
  const [form, setForm] = useState({ rate: '', as_of: argentineToday(), reason: '' });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [busy, setBusy] = useState(false);
  const current = data.entries.length > 0 ? data.current : null;

  const set = (field: keyof typeof form) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((prev) => ({ ...prev, [field]: undefined }));
  };

  // The server checks every field and answers in the staff member's language; its messages are shown as they come.
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const next = await overrideMep(form);
      queryClient.setQueryData(mepHistoryQuery().queryKey, next);
      await queryClient.invalidateQueries({ queryKey: ['mep'] });
      setForm((f) => ({ ...f, rate: '', reason: '' }));
      showToast({ type: 'success', message: intl.formatMessage({ id: 'staff.mep.saved', defaultMessage: 'Tipo de cambio guardado.' }) });
    } catch (err) {
      if (!(err instanceof ApiError && Object.keys(err.fields).length > 0)) throw err;
      setErrors(err.fields);
    } finally {
      setBusy(false);
    }
  };

  const columns: ColumnDef<RateEntry, unknown>[] = [
    { id: 'day', header: intl.formatMessage({ id: 'staff.mep.col.day', defaultMessage: 'Día' }), cell: ({ row: { original: r } }) => day(r.as_of) },
    { id: 'rate', header: intl.formatMessage({ id: 'staff.mep.col.rate', defaultMessage: 'Un dólar' }), cell: ({ row: { original: r } }) => r.rate.formatted },
    { id: 'source', header: intl.formatMessage({ id: 'staff.mep.col.source', defaultMessage: 'Fuente' }), cell: ({ row: { original: r } }) => r.source },
    {
      id: 'by',
      header: intl.formatMessage({ id: 'staff.mep.col.by', defaultMessage: 'Cambiado por' }),
      cell: ({ row: { original: r } }) => r.staff_email ?? <FormattedMessage id="staff.mep.provider" defaultMessage="Proveedor" />,
    },
    { id: 'reason', header: intl.formatMessage({ id: 'staff.mep.col.reason', defaultMessage: 'Motivo' }), cell: ({ row: { original: r } }) => r.reason ?? '' },
    {
      id: 'at',
      header: intl.formatMessage({ id: 'staff.mep.col.at', defaultMessage: 'Registrado' }),
      cell: ({ row: { original: r } }) => <FormattedDate value={r.created_at} dateStyle="short" timeStyle="short" />,
    },
  ];

  return (
    <Stack gap="lg">
      <PageHeader
        title={<FormattedMessage id="staff.mep.title" defaultMessage="Tipo de cambio MEP" />}
        lead={<FormattedMessage id="staff.mep.lead" defaultMessage="Con él se muestran en pesos los precios en dólares de los planes en Argentina." />}
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper withBorder radius="lg" p="lg" data-testid="mep-current">
          <Title order={2} size="h4" mb="sm">
            <FormattedMessage id="staff.mep.current" defaultMessage="En vigor" />
          </Title>
          {current ? (
            <Stack gap={4}>
              <Text size="xl" fw={700}>
                <FormattedMessage id="staff.mep.perDollar" defaultMessage="{rate} por dólar" values={{ rate: current.rate.formatted }} />
              </Text>
              <Text size="sm" c="dimmed">
                <FormattedMessage id="staff.mep.sourceDay" defaultMessage="{source}, {date}" values={{ source: current.source, date: day(current.as_of) }} />
              </Text>
            </Stack>
          ) : (
            <Alert color="orange" variant="light">
              <FormattedMessage id="staff.mep.none" defaultMessage="El proveedor todavía no dio ningún valor. Puedes fijar uno aquí." />
            </Alert>
          )}
        </Paper>
        <Paper withBorder radius="lg" p="lg" component="form" onSubmit={submit} aria-labelledby="mep-override-title" noValidate>
          <Title order={2} size="h4" mb="sm" id="mep-override-title">
            <FormattedMessage id="staff.mep.override" defaultMessage="Fijar el valor de un día" />
          </Title>
          <Stack gap="sm">
            <Group grow align="flex-start" wrap="wrap">
              <TextInput label={<FormattedMessage id="staff.mep.rate" defaultMessage="Un dólar en pesos" />} placeholder="1450.25" inputMode="decimal"
                required value={form.rate} onChange={set('rate')} error={errors.rate} miw={160} />
              <TextInput type="date" label={<FormattedMessage id="staff.mep.day" defaultMessage="Día" />} required max={argentineToday()}
                value={form.as_of} onChange={set('as_of')} error={errors.as_of} miw={160} />
            </Group>
            <Textarea label={<FormattedMessage id="staff.reason" defaultMessage="Motivo" />}
              description={<FormattedMessage id="staff.mep.reasonHint" defaultMessage="Queda en el registro, con tu nombre." />}
              required autosize minRows={2} maxLength={500} value={form.reason} onChange={set('reason')} error={errors.reason} />
            <Group justify="flex-end">
              <Button type="submit" loading={busy}>
                <FormattedMessage id="staff.mep.save" defaultMessage="Guardar tipo de cambio" />
              </Button>
            </Group>
          </Stack>
        </Paper>
      </SimpleGrid>
      <Paper withBorder radius="lg" p={{ base: 'xs', sm: 'md' }}>
        <DataTable data={data.entries} columns={columns} getRowId={(r) => `${r.created_at}-${r.source}-${r.rate.minor}`} minWidth={720} testId="mep-history"
          caption={<FormattedMessage id="staff.mep.history" defaultMessage="Historial: valores del proveedor y cambios del staff" />} />
      </Paper>
    </Stack>
  );
}
