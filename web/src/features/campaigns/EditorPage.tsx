import {
  ActionIcon, Alert, Anchor, Badge, Button as MantineButton, Checkbox, ColorInput, FileButton, Group, Image, Menu, NumberInput, Paper,
  Select, SimpleGrid, Stack, Switch, Text, TextInput, Textarea, Title,
} from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ApiError } from '../../api/client';
import { SaveStatusBanner } from '../../components/SaveStatusBanner';
import { useSaveStatus } from '../../components/useSaveStatus';
import { Button, StatusBadge } from '../../components/variants';
import {
  campaignQuery, checkCover, HEX_COLOR, INSTALMENTS, openSharePopup, patchCampaign, publicUrl, putFormFields, setPublished, UPGRADE_PERIODS,
  toDraft, uploadCover, type Campaign, type CampaignDraft, type CampaignEvent,
} from './api';
import { FormFieldsEditor } from './FormFieldsEditor';
import { typeName } from './labels';
import { allowedByPlan, subscriptionQuery } from '../subscription/api';
import { CrownLockHint, QrDialog } from './QrDialog';
import { channelName, CHANNELS } from './labels';
import { DateTimeField } from '../../components/DateFields';
import { Crumbs } from '../../components/PageHeader';

const COPIED_MS = 3000;
const SHORT_CODES = ['{nombre}', '{monto}', '{campaña}'];

function Section({ title, description, children }: { title: ReactNode; description?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="section">
      <Title order={2} size="h4" mb={description ? 2 : 'sm'}>{title}</Title>
      {description && <Text size="sm" c="dimmed" mb="sm">{description}</Text>}
      <Stack gap="sm">{children}</Stack>
    </Paper>
  );
}


export function EditorPage({ uuid }: { uuid: string }) {
  const { data } = useSuspenseQuery(campaignQuery(uuid)); // the route's loader has it in the cache
  return <Editor key={data.uuid} initial={data} />;
}

function Editor({ initial }: { initial: Campaign }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const save = useSaveStatus();
  const [c, setC] = useState<CampaignDraft>(() => toDraft(initial));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [publishError, setPublishError] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [refusedByPlan, setRefusedByPlan] = useState(false);
  const { data: subscription } = useQuery(subscriptionQuery());
  // Immediate charge needs a plan (§6): known from the subscription, or learnt from the server's refusal.
  const planLocked = refusedByPlan || (subscription !== undefined && !allowedByPlan(subscription));
  const [coverError, setCoverError] = useState<string | null>(null);
  const [publishing, setPublishing] = useState(false);
  const [qrOpen, setQrOpen] = useState(false);
  const thanksRef = useRef<HTMLTextAreaElement>(null);
  const emailRef = useRef<HTMLTextAreaElement>(null);

  const set = <K extends keyof CampaignDraft>(k: K, v: CampaignDraft[K]) => setC((prev) => ({ ...prev, [k]: v }));
  const required = intl.formatMessage({ id: 'campaigns.required', defaultMessage: 'Este campo es requerido' });
  const colorInvalid = intl.formatMessage({ id: 'campaigns.colorInvalid', defaultMessage: 'Color hexadecimal invalido' });
  const pi = c.periodic_increase;
  const minPct = pi.min_percentage ?? 1;
  const maxPct = pi.max_percentage ?? 100;
  const localErrors: Record<string, string> = {};
  if (!c.title.trim()) localErrors.title = required;
  if (c.form_color && !HEX_COLOR.test(c.form_color)) localErrors.form_color = colorInvalid;
  if (pi.enabled && (pi.percentage === null || pi.percentage < minPct || pi.percentage > maxPct)) {
    localErrors['periodic_increase.percentage'] = intl.formatMessage(
      { id: 'campaigns.percentageRange', defaultMessage: 'El monto debe ser un valor entre {min}% y {max}%' },
      { min: minPct, max: maxPct },
    );
  }
  const err = (k: string) => localErrors[k] ?? fieldErrors[k];

  const applied = (next: Campaign) => {
    setC(toDraft(next));
    queryClient.setQueryData(campaignQuery(next.uuid).queryKey, next);
    void queryClient.invalidateQueries({ queryKey: ['campaigns'], exact: true });
  };

  async function saveAll() {
    setFormError(null);
    if (Object.keys(localErrors).length > 0) {
      setFormError(intl.formatMessage({ id: 'campaigns.fixErrors', defaultMessage: 'Verifica que todos los campos requeridos estén completos y sean válidos' }));
      return;
    }
    const { uuid, form_fields: _ff, currency: _cu, country: _co, published: _p, published_at: _pa, cover_url: _cv, public_path: _pp, created_at: _ca, updated_at: _ua, ...body } = c;
    const result = await save.track(async () => {
      try {
        const out = await patchCampaign(uuid, {
          ...body,
          amounts: c.amounts.filter((a) => a.amount.trim() !== '').map(({ amount, label }) => ({ amount: amount.trim(), label })),
          min_other_amount: c.allow_other_amount && c.min_other_amount?.trim() ? c.min_other_amount.trim() : null,
          event: c.type === 'tickets' ? c.event : null,
        });
        setFieldErrors({});
        return out;
      } catch (e) {
        if (e instanceof ApiError) {
          setFieldErrors(e.fields ?? {});
          setFormError(e.message);
          if (e.code.includes('plan_required')) setRefusedByPlan(true);
        }
        throw e;
      }
    });
    if (result) applied(result);
  }

  async function togglePublish() {
    setPublishError(null);
    setPublishing(true);
    try {
      const out = await save.track(async () => {
        try {
          return await setPublished(c.uuid, !c.published);
        } catch (e) {
          if (e instanceof ApiError) setPublishError({ message: e.message, fields: e.fields ?? {} });
          throw e;
        }
      });
      if (out) applied(out);
    } finally {
      setPublishing(false);
    }
  }

  async function onCover(file: File | null) {
    if (!file) return;
    const bad = checkCover(file);
    if (bad) {
      setCoverError(bad === 'type'
        ? intl.formatMessage({ id: 'campaigns.cover.type', defaultMessage: 'El archivo debe ser una imagen jpeg, jpg, png o gif' })
        : intl.formatMessage({ id: 'campaigns.cover.size', defaultMessage: 'La imagen debe pesar menos de 5 MB' }));
      return;
    }
    setCoverError(null);
    const out = await save.track(async () => {
      try {
        return await uploadCover(c.uuid, file);
      } catch (e) {
        if (e instanceof ApiError) setCoverError(e.message);
        throw e;
      }
    });
    if (out) {
      const cover_url = `${out.cover_url}${out.cover_url.includes('?') ? '&' : '?'}v=${Date.now()}`;
      setC((prev) => ({ ...prev, cover_url }));
      queryClient.setQueryData(campaignQuery(c.uuid).queryKey, (prev) => prev && { ...prev, cover_url });
      void queryClient.invalidateQueries({ queryKey: ['campaigns'], exact: true });
    }
  }

  function insertCode(ref: React.RefObject<HTMLTextAreaElement | null>, key: 'instant' | 'email', code: string) {
    const el = ref.current;
    const text = c.thanks[key];
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    set('thanks', { ...c.thanks, [key]: text.slice(0, start) + code + text.slice(end) });
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + code.length, start + code.length);
    });
  }

  const ev: CampaignEvent = c.event ?? { category: '', format: '', starts_at: null, ends_at: null, ticket_sales_end: null, tickets: [] };
  const setEv = (patch: Partial<CampaignEvent>) => set('event', { ...ev, ...patch });
  const url = publicUrl(c);

  return (
    <Stack gap="lg" pb={80}>
      <SaveStatusBanner status={save.status} visible={save.visible} />
      <Crumbs up={<Anchor component={Link} to="/manage/campaigns" size="sm"><FormattedMessage id="campaigns.back" defaultMessage="Campañas" /></Anchor>} current={c.title || '—'} />
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        <Group justify="space-between" align="flex-start" gap="md">
          <Stack gap={4} style={{ minWidth: 0, flex: '1 1 280px' }}>
            <Group gap="xs">
              <Badge variant="light" color="gray">{typeName(intl, c.type)}</Badge>
              {c.published ? (
                <StatusBadge color="green"><FormattedMessage id="campaigns.status.published" defaultMessage="Publicada" /></StatusBadge>
              ) : (
                <StatusBadge color="purple"><FormattedMessage id="campaigns.status.unpublished" defaultMessage="Sin publicar" /></StatusBadge>
              )}
            </Group>
            <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>{initial.title === c.title ? c.title : c.title || '—'}</Title>
            <Anchor href={url} target="_blank" rel="noopener" size="sm" style={{ overflowWrap: 'anywhere' }}>{url}</Anchor>
          </Stack>
          <Group gap="xs">
            <ShareMenu url={url} title={c.title} />
            <Button variant="outline" onClick={() => setQrOpen(true)} data-testid="editor-qr">
              <FormattedMessage id="campaigns.qr.open" defaultMessage="Código QR" />
            </Button>
            <Button variant={c.published ? 'outline' : 'primary'} loading={publishing} onClick={togglePublish}>
              {c.published ? <FormattedMessage id="campaigns.unpublish" defaultMessage="Despublicar" /> : <FormattedMessage id="campaigns.publish" defaultMessage="Publicar" />}
            </Button>
          </Group>
        </Group>
        {publishError && (
          <Alert color="red" mt="md" role="alert" title={<FormattedMessage id="campaigns.publishRefused" defaultMessage="No se pudo cambiar la publicación" />}>
            {publishError.message}
            {Object.keys(publishError.fields).length > 0 && (
              <ul style={{ margin: '6px 0 0', paddingLeft: 18 }}>
                {Object.entries(publishError.fields).map(([k, v]) => <li key={k}>{k}: {v}</li>)}
              </ul>
            )}
          </Alert>
        )}
      </Paper>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" style={{ alignItems: 'start' }}>
        <Stack gap="lg">
          <Section title={<FormattedMessage id="campaigns.details" defaultMessage="Detalles" />}>
            <TextInput label={<FormattedMessage id="campaigns.f.title" defaultMessage="Título" />} required value={c.title} error={err('title')} onChange={(e) => set('title', e.target.value)} />
            <Textarea label={<FormattedMessage id="campaigns.f.description" defaultMessage="Descripción" />} autosize minRows={3} value={c.description} error={err('description')} onChange={(e) => set('description', e.target.value)} />
            <TextInput label={<FormattedMessage id="campaigns.f.objective" defaultMessage="Objetivo" />} value={c.objective} error={err('objective')} onChange={(e) => set('objective', e.target.value)} />
            <Select label={<FormattedMessage id="campaigns.f.channel" defaultMessage="Canal" />}
              description={<FormattedMessage id="campaigns.f.channelHint" defaultMessage="Por dónde llegan los donantes de esta campaña." />}
              allowDeselect={false} value={c.channel} error={err('channel')} onChange={(v) => v && set('channel', v)}
              data={CHANNELS.map((ch) => ({ value: ch, label: channelName(intl, ch) }))} />
            <TextInput label={<FormattedMessage id="campaigns.f.slug" defaultMessage="Dirección del formulario" />} leftSection={<Text size="xs" c="dimmed">/d/</Text>} leftSectionWidth={36}
              value={c.slug} error={err('slug')} onChange={(e) => set('slug', e.target.value.toLowerCase().replace(/[^a-z0-9-]/g, '-'))} />
          </Section>

          <Section title={<FormattedMessage id="campaigns.amounts" defaultMessage="Montos" />} description={<FormattedMessage id="campaigns.amountsHint" defaultMessage="Montos sugeridos en {currency}, cada uno con una etiqueta opcional." values={{ currency: c.currency }} />}>
            {c.amounts.map((a, i) => (
              <Group key={i} gap="xs" align="flex-start" wrap="nowrap">
                <TextInput aria-label={intl.formatMessage({ id: 'campaigns.f.amountN', defaultMessage: 'Monto {n}' }, { n: i + 1 })} placeholder="1500" inputMode="decimal" w={130}
                  value={a.amount} error={err(`amounts.${i}.amount`)} onChange={(e) => set('amounts', c.amounts.map((x, j) => (j === i ? { ...x, amount: e.target.value } : x)))} />
                <TextInput aria-label={intl.formatMessage({ id: 'campaigns.f.labelN', defaultMessage: 'Etiqueta del monto {n}' }, { n: i + 1 })} style={{ flex: 1 }}
                  placeholder={intl.formatMessage({ id: 'campaigns.f.labelPlaceholder', defaultMessage: 'Ej.: Un mes de útiles escolares' })}
                  value={a.label} error={err(`amounts.${i}.label`)} onChange={(e) => set('amounts', c.amounts.map((x, j) => (j === i ? { ...x, label: e.target.value } : x)))} />
                <ActionIcon variant="subtle" color="red" size="lg" mt={2} onClick={() => set('amounts', c.amounts.filter((_, j) => j !== i))}
                  aria-label={intl.formatMessage({ id: 'campaigns.f.removeAmount', defaultMessage: 'Quitar monto {n}' }, { n: i + 1 })}>×</ActionIcon>
              </Group>
            ))}
            {c.amounts.length < 12 && (
              <MantineButton variant="light" size="compact-md" w="fit-content" onClick={() => set('amounts', [...c.amounts, { amount: '', label: '' }])}>
                + <FormattedMessage id="campaigns.f.addAmount" defaultMessage="Agregar monto" />
              </MantineButton>
            )}
            <Switch label={<FormattedMessage id="campaigns.f.allowOneTime" defaultMessage="Permitir donaciones por única vez" />} checked={c.allow_one_time} onChange={(e) => set('allow_one_time', e.currentTarget.checked)} />
            <Switch label={<FormattedMessage id="campaigns.f.allowOther" defaultMessage="Permitir otro monto" />} checked={c.allow_other_amount} onChange={(e) => set('allow_other_amount', e.currentTarget.checked)} />
            {c.allow_other_amount && (
              <TextInput label={<FormattedMessage id="campaigns.f.minOther" defaultMessage="Monto mínimo para otro monto" />} inputMode="decimal" w={220}
                value={c.min_other_amount ?? ''} error={err('min_other_amount')} onChange={(e) => set('min_other_amount', e.target.value)} />
            )}
            <Select label={<FormattedMessage id="campaigns.f.instalments" defaultMessage="Cuotas para donaciones únicas" />} w={260} allowDeselect={false}
              value={String(c.instalments)} error={err('instalments')}
              data={INSTALMENTS.map((n) => ({ value: String(n), label: n === 0 ? intl.formatMessage({ id: 'campaigns.f.noInstalments', defaultMessage: 'Sin cuotas' }) : intl.formatMessage({ id: 'campaigns.f.upToInstalments', defaultMessage: 'Hasta {n} cuotas' }, { n }) }))}
              onChange={(v) => set('instalments', Number(v ?? 0))} />
          </Section>

          <Section title={<FormattedMessage id="campaigns.fields" defaultMessage="Campos del formulario" />} description={<FormattedMessage id="campaigns.fieldsHint" defaultMessage="Arrastra los campos para ordenarlos; cada uno se configura en su diálogo." />}>
            <FormFieldsEditor fields={c.form_fields} onSave={(ff) => save.track(async () => {
              const out = await putFormFields(c.uuid, ff);
              queryClient.setQueryData(campaignQuery(out.uuid).queryKey, out);
              return out;
            })} />
          </Section>

          {c.type === 'tickets' && (
            <Section title={<FormattedMessage id="campaigns.event" defaultMessage="Evento" />}>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label={<FormattedMessage id="campaigns.event.category" defaultMessage="Categoría" />} value={ev.category} onChange={(e) => setEv({ category: e.target.value })} />
                <Select label={<FormattedMessage id="campaigns.event.format" defaultMessage="Formato" />} value={ev.format || null} error={err('event.format')}
                  data={[{ value: 'online', label: intl.formatMessage({ id: 'campaigns.event.online', defaultMessage: 'En línea' }) }, { value: 'physical', label: intl.formatMessage({ id: 'campaigns.event.physical', defaultMessage: 'Presencial' }) }]}
                  onChange={(v) => setEv({ format: (v ?? '') as CampaignEvent['format'] })} />
                <DateTimeField label={<FormattedMessage id="campaigns.event.starts" defaultMessage="Comienza" />} value={ev.starts_at} onChange={(starts_at) => setEv({ starts_at })} />
                <DateTimeField label={<FormattedMessage id="campaigns.event.ends" defaultMessage="Termina" />} value={ev.ends_at} error={err('event.ends_at')} onChange={(ends_at) => setEv({ ends_at })} />
                <DateTimeField label={<FormattedMessage id="campaigns.event.salesEnd" defaultMessage="Fin de la venta de entradas" />} value={ev.ticket_sales_end} onChange={(ticket_sales_end) => setEv({ ticket_sales_end })} />
              </SimpleGrid>
              <Text fw={600} size="sm"><FormattedMessage id="campaigns.event.tickets" defaultMessage="Entradas" /></Text>
              {ev.tickets.map((t, i) => (
                <Group key={i} gap="xs" align="flex-end" wrap="nowrap">
                  <TextInput style={{ flex: 1 }} label={<FormattedMessage id="campaigns.event.ticketName" defaultMessage="Nombre" />} value={t.name} error={err(`event.tickets.${i}.name`)}
                    onChange={(e) => setEv({ tickets: ev.tickets.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)) })} />
                  <NumberInput w={110} min={1} label={<FormattedMessage id="campaigns.event.quantity" defaultMessage="Cantidad" />} disabled={t.quantity === null} value={t.quantity ?? ''}
                    onChange={(v) => setEv({ tickets: ev.tickets.map((x, j) => (j === i ? { ...x, quantity: typeof v === 'number' ? v : null } : x)) })} />
                  <Checkbox mb={8} label={<FormattedMessage id="campaigns.event.unlimited" defaultMessage="Ilimitadas" />} checked={t.quantity === null}
                    onChange={(e) => setEv({ tickets: ev.tickets.map((x, j) => (j === i ? { ...x, quantity: e.currentTarget.checked ? null : 100 } : x)) })} />
                  <ActionIcon mb={4} variant="subtle" color="red" onClick={() => setEv({ tickets: ev.tickets.filter((_, j) => j !== i) })} aria-label={intl.formatMessage({ id: 'campaigns.event.removeTicket', defaultMessage: 'Quitar entrada' })}>×</ActionIcon>
                </Group>
              ))}
              <MantineButton variant="light" size="compact-md" w="fit-content" onClick={() => setEv({ tickets: [...ev.tickets, { name: '', quantity: null }] })}>
                + <FormattedMessage id="campaigns.event.addTicket" defaultMessage="Agregar entrada" />
              </MantineButton>
            </Section>
          )}
        </Stack>

        <Stack gap="lg">
          <Section title={<FormattedMessage id="campaigns.appearance" defaultMessage="Imagen y estilo" />}>
            {c.cover_url ? <Image src={c.cover_url} radius="md" h={160} fit="cover" alt="" /> : null}
            <Group>
              <FileButton onChange={onCover} accept="image/jpeg,image/jpg,image/png,image/gif">
                {(props) => <Button variant="outline" {...props}><FormattedMessage id="campaigns.cover.upload" defaultMessage="Subir imagen de portada" /></Button>}
              </FileButton>
              <Text size="xs" c="dimmed"><FormattedMessage id="campaigns.cover.rules" defaultMessage="jpeg, jpg, png o gif, menos de 5 MB" /></Text>
            </Group>
            {coverError && <Text size="sm" c="red.8" role="alert">{coverError}</Text>}
            <ColorInput label={<FormattedMessage id="campaigns.f.color" defaultMessage="Color del formulario" />} format="hex" withEyeDropper={false} w={220}
              value={c.form_color} error={err('form_color')} onChange={(v) => set('form_color', v)} />
            <DateTimeField w={260} label={<FormattedMessage id="campaigns.f.endsAt" defaultMessage="Fecha de finalización" />} value={c.ends_at} onChange={(endsAt) => set('ends_at', endsAt)} />
          </Section>

          <Section title={<FormattedMessage id="campaigns.upgrade" defaultMessage="Aumento periódico" />} description={<FormattedMessage id="campaigns.upgradeHint" defaultMessage="Ofrece a los donantes mensuales aumentar su aporte automáticamente." />}>
            <Switch label={<FormattedMessage id="campaigns.upgrade.enabled" defaultMessage="Ofrecer el aumento periódico" />} checked={pi.enabled} onChange={(e) => set('periodic_increase', { ...pi, enabled: e.currentTarget.checked, percentage: pi.percentage ?? 10, period_months: pi.period_months ?? 12 })} />
            {pi.enabled && (
              <SimpleGrid cols={2}>
                <TextInput label={<FormattedMessage id="campaigns.upgrade.percentage" defaultMessage="Porcentaje" />} rightSection="%" inputMode="decimal"
                  value={pi.percentage ?? ''} error={err('periodic_increase.percentage')}
                  onChange={(e) => set('periodic_increase', { ...pi, percentage: e.target.value === '' ? null : Number(e.target.value.replace(',', '.')) })} />
                <Select label={<FormattedMessage id="campaigns.upgrade.period" defaultMessage="Cada" />} allowDeselect={false} value={String(pi.period_months ?? 12)} error={err('periodic_increase.period_months')}
                  data={UPGRADE_PERIODS.map((n) => ({ value: String(n), label: n === 12 ? intl.formatMessage({ id: 'campaigns.upgrade.year', defaultMessage: '1 año' }) : intl.formatMessage({ id: 'campaigns.upgrade.months', defaultMessage: '{n, plural, one {# mes} other {# meses}}' }, { n }) }))}
                  onChange={(v) => set('periodic_increase', { ...pi, period_months: Number(v) })} />
                <TextInput label={<FormattedMessage id="campaigns.upgrade.min" defaultMessage="Mínimo" />} rightSection="%" value={pi.min_percentage ?? ''}
                  onChange={(e) => set('periodic_increase', { ...pi, min_percentage: e.target.value === '' ? null : Number(e.target.value) })} />
                <TextInput label={<FormattedMessage id="campaigns.upgrade.max" defaultMessage="Máximo" />} rightSection="%" value={pi.max_percentage ?? ''} error={err('periodic_increase.max_percentage')}
                  onChange={(e) => set('periodic_increase', { ...pi, max_percentage: e.target.value === '' ? null : Number(e.target.value) })} />
              </SimpleGrid>
            )}
          </Section>

          <Section title={<FormattedMessage id="campaigns.thanks" defaultMessage="Mensajes de agradecimiento" />} description={<FormattedMessage id="campaigns.thanksHint" defaultMessage="Usa los códigos para personalizar el mensaje." />}>
            <Textarea ref={thanksRef} label={<FormattedMessage id="campaigns.thanks.instant" defaultMessage="Mensaje inmediato (en pantalla)" />} autosize minRows={2}
              value={c.thanks.instant} error={err('thanks.instant')} onChange={(e) => set('thanks', { ...c.thanks, instant: e.target.value })} />
            <CodeChips onPick={(code) => insertCode(thanksRef, 'instant', code)} />
            <TextInput label={<FormattedMessage id="campaigns.thanks.subject" defaultMessage="Asunto del correo" />} value={c.thanks.email_subject} onChange={(e) => set('thanks', { ...c.thanks, email_subject: e.target.value })} />
            <Textarea ref={emailRef} label={<FormattedMessage id="campaigns.thanks.email" defaultMessage="Mensaje del correo" />} autosize minRows={3}
              value={c.thanks.email} error={err('thanks.email')} onChange={(e) => set('thanks', { ...c.thanks, email: e.target.value })} />
            <CodeChips onPick={(code) => insertCode(emailRef, 'email', code)} />
          </Section>

          <Section title={<FormattedMessage id="campaigns.advanced" defaultMessage="Opciones avanzadas" />}>
            <Switch
              label={<FormattedMessage id="campaigns.immediateCharge" defaultMessage="Cobrar la primera cuota mensual de inmediato" />}
              checked={c.immediate_charge} disabled={planLocked} error={err('immediate_charge')}
              onChange={(e) => set('immediate_charge', e.currentTarget.checked)} />
            {planLocked && <CrownLockHint />}
            <TextInput label={<FormattedMessage id="campaigns.analytics.pixel" defaultMessage="Píxel de Meta" />} value={c.analytics.pixel_id} onChange={(e) => set('analytics', { ...c.analytics, pixel_id: e.target.value })} />
            <TextInput label={<FormattedMessage id="campaigns.analytics.ga" defaultMessage="Google Analytics" />} value={c.analytics.analytics_id} onChange={(e) => set('analytics', { ...c.analytics, analytics_id: e.target.value })} />
            <TextInput label={<FormattedMessage id="campaigns.analytics.gtm" defaultMessage="Google Tag Manager" />} value={c.analytics.tag_manager_id} onChange={(e) => set('analytics', { ...c.analytics, tag_manager_id: e.target.value })} />
          </Section>
        </Stack>
      </SimpleGrid>

      <Paper withBorder radius="lg" p="sm" shadow="md" style={{ position: 'sticky', bottom: 12, zIndex: 5 }}>
        <Group justify="space-between" gap="sm">
          <Text size="sm" c={formError ? 'red.8' : 'dimmed'} role={formError ? 'alert' : undefined} style={{ flex: 1 }}>
            {formError ?? <FormattedMessage id="campaigns.saveHint" defaultMessage="Los cambios se aplican al guardar." />}
          </Text>
          <Button onClick={saveAll}><FormattedMessage id="campaigns.save" defaultMessage="Guardar cambios" /></Button>
        </Group>
      </Paper>
      <QrDialog campaign={qrOpen ? initial : null} onClose={() => setQrOpen(false)} />
    </Stack>
  );
}

function CodeChips({ onPick }: { onPick: (code: string) => void }) {
  const intl = useIntl();
  return (
    <Group gap={6}>
      {SHORT_CODES.map((code) => (
        <MantineButton key={code} size="compact-xs" radius="xl" variant="light" color="grape" onClick={() => onPick(code)}
          aria-label={intl.formatMessage({ id: 'campaigns.thanks.insert', defaultMessage: 'Insertar {code}' }, { code })}>
          {code}
        </MantineButton>
      ))}
    </Group>
  );
}

function ShareMenu({ url, title }: { url: string; title: string }) {
  const clipboard = useClipboard({ timeout: COPIED_MS });
  return (
    <Menu position="bottom-end" shadow="md" closeOnItemClick={false}>
      <Menu.Target>
        <Button variant="secondary"><FormattedMessage id="campaigns.share" defaultMessage="Compartir" /></Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => openSharePopup('facebook', url, title)}>Facebook</Menu.Item>
        <Menu.Item onClick={() => openSharePopup('twitter', url, title)}>Twitter</Menu.Item>
        <Menu.Item onClick={() => openSharePopup('whatsapp', url, title)}>WhatsApp</Menu.Item>
        <Menu.Divider />
        <Menu.Item onClick={() => clipboard.copy(url)} aria-live="polite">
          {clipboard.copied ? <FormattedMessage id="copyLink.copied" defaultMessage="¡Enlace copiado!" /> : <FormattedMessage id="copyLink.copy" defaultMessage="Copiar enlace" />}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
