import { Avatar, FileButton, Group, MultiSelect, Paper, Select, SimpleGrid, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { queryOptions, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { apiFetch } from '../../api/client';
import { SaveStatusBanner } from '../../components/SaveStatusBanner';
import { useSaveStatus } from '../../components/useSaveStatus';
import { Button } from '../../components/variants';
import { organizationQuery, type Organization, type Permissions } from '../documents/api';
import { checkLogo, MAX_DESCRIPTION, parseDomains, TIMEZONES } from './rules';
import { PageHeader } from '../../components/PageHeader';
import { FormSection, SectionCard } from '../../components/SectionCard';
import type { CountryData } from '../../api/types.gen';
import { categoryName, MAX_CATEGORIES } from './categories';
import { Pictures } from './Pictures';

type Track = ReturnType<typeof useSaveStatus>['track'];

export function OrganizationPage() {
  const { data: org } = useSuspenseQuery(organizationQuery()); // the route's loader has it in the cache
  const save = useSaveStatus();
  const store = useStore();
  return (
    <Stack gap="lg">
      <SaveStatusBanner status={save.status} visible={save.visible} />
      <PageHeader title={<FormattedMessage id="org.title" defaultMessage="Organización" />} />
      <Logo org={org} track={save.track} />
      <DataForm org={org} track={save.track} />
      <Pictures org={org} track={save.track} store={store} />
      <Consents org={org} track={save.track} />
    </Stack>
  );
}

/** GET /manage/api/country: the organisation's country data (categories, phone codes…). */
const countryDataQuery = () =>
  queryOptions({ queryKey: ['country-data'], queryFn: ({ signal }) => apiFetch<CountryData>('/manage/api/country', { signal }), staleTime: 5 * 60_000 });

function useStore() {
  const queryClient = useQueryClient();
  return (next: unknown) =>
    next && typeof next === 'object' && 'name' in next
      ? queryClient.setQueryData(organizationQuery().queryKey, next as Organization)
      : queryClient.invalidateQueries({ queryKey: ['organization'] });
}

function Logo({ org, track }: { org: Organization; track: Track }) {
  const intl = useIntl();
  const store = useStore();
  const [error, setError] = useState<string>();
  const onFile = async (file: File | null) => {
    if (!file) return;
    const problem = checkLogo(file);
    if (problem) {
      setError(
        problem === 'organization.invalid_logo_size'
          ? intl.formatMessage({ id: 'org.logoTooBig', defaultMessage: 'El logo debe pesar menos de 5 MB.' })
          : intl.formatMessage({ id: 'org.logoType', defaultMessage: 'El logo debe ser JPG, PNG o GIF.' }),
      );
      return;
    }
    setError(undefined);
    const form = new FormData();
    form.append('logo', file);
    const res = await track(() => apiFetch<unknown>('/manage/organization/logo', { method: 'PUT', body: form }));
    if (res !== undefined) await store(res);
  };
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="org-logo">
      <Group gap="lg" wrap="wrap">
        <Avatar src={org.logo_url ?? undefined} size={88} radius="md" alt={intl.formatMessage({ id: 'org.logoAlt', defaultMessage: 'Logo de {name}' }, { name: org.name })}>
          {org.name.slice(0, 2).toUpperCase()}
        </Avatar>
        <Stack gap={6}>
          <Title order={2} size="h4" id="org-logo">
            <FormattedMessage id="org.logo" defaultMessage="Logo" />
          </Title>
          <Text size="sm" c="dimmed">
            <FormattedMessage id="org.logoHint" defaultMessage="JPG, PNG o GIF de menos de 5 MB." />
          </Text>
          <FileButton onChange={onFile} accept=".jpg,.jpeg,.png,.gif,image/jpeg,image/png,image/gif">
            {(props) => (
              <Button {...props} variant="outline" size="sm">
                <FormattedMessage id="org.changeLogo" defaultMessage="Cambiar logo" />
              </Button>
            )}
          </FileButton>
          {error && (
            <Text role="alert" c="red.8" size="sm">
              {error}
            </Text>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}

function DataForm({ org, track }: { org: Organization; track: Track }) {
  const intl = useIntl();
  const store = useStore();
  const { data: country } = useQuery(countryDataQuery());
  const [categories, setCategories] = useState<string[]>(org.categories ?? []);
  const [form, setForm] = useState({
    legal_name: org.legal_name ?? '',
    short_description: org.short_description ?? '',
    allowed_domains: Array.isArray(org.allowed_domains) ? org.allowed_domains.join(', ') : (org.allowed_domains ?? ''),
    street: org.address?.street ?? '',
    number: org.address?.number ?? '',
    city: org.address?.city ?? '',
    state: org.address?.state ?? '',
    postal_code: org.address?.postal_code ?? '',
    contact_name: org.administrative_contact?.name ?? '',
    contact_email: org.administrative_contact?.email ?? '',
    contact_phone: org.administrative_contact?.phone ?? '',
    timezone: org.timezone ?? '',
  });
  const [domainError, setDomainError] = useState<string>();
  const set = (key: keyof typeof form) => (e: { currentTarget: { value: string } }) => setForm({ ...form, [key]: e.currentTarget.value });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { domains, invalid } = parseDomains(form.allowed_domains);
    if (invalid) {
      setDomainError(intl.formatMessage({ id: 'org.domainInvalid', defaultMessage: '«{domain}» no es un dominio válido (solo el dominio, p. ej. miong.org).' }, { domain: invalid }));
      return;
    }
    setDomainError(undefined);
    const res = await track(() =>
      apiFetch<unknown>('/manage/organization', {
        method: 'PATCH',
        body: {
          legal_name: form.legal_name,
          categories,
          short_description: form.short_description,
          allowed_domains: domains.join(','),
          address: { street: form.street, number: form.number, city: form.city, state: form.state, postal_code: form.postal_code },
          administrative_contact: { name: form.contact_name, email: form.contact_email, phone: form.contact_phone },
          timezone: form.timezone,
        },
      }),
    );
    if (res !== undefined) await store(res);
  };
  const timezones = TIMEZONES.includes(form.timezone) || !form.timezone ? TIMEZONES : [form.timezone, ...TIMEZONES];
  return (
    <FormSection id="org-data" title={<FormattedMessage id="org.data" defaultMessage="Datos de la organización" />} onSubmit={submit}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput label={<FormattedMessage id="org.name" defaultMessage="Nombre" />} value={org.name} readOnly disabled />
        <TextInput label={<FormattedMessage id="org.uid" defaultMessage="Identificación fiscal" />} value={`${org.uid_type ?? ''} ${org.uid ?? ''}`.trim()} readOnly disabled />
        <TextInput label={<FormattedMessage id="org.legalName" defaultMessage="Razón social" />} value={form.legal_name} onChange={set('legal_name')} maxLength={200} />
        <MultiSelect
          label={<FormattedMessage id="org.categories" defaultMessage="Temas y categorías" />}
          description={<FormattedMessage id="org.categoriesHint" defaultMessage="Hasta {max} temas en los que trabajan." values={{ max: MAX_CATEGORIES }} />}
          data={(country?.categories ?? categories).map((c) => ({ value: c, label: categoryName(intl, c) }))}
          value={categories}
          onChange={setCategories}
          maxValues={MAX_CATEGORIES}
          searchable
        />
      </SimpleGrid>
      <Textarea
        label={<FormattedMessage id="org.shortDescription" defaultMessage="Descripción breve" />}
        description={<FormattedMessage id="org.counter" defaultMessage="{count} / {max} caracteres" values={{ count: form.short_description.length, max: MAX_DESCRIPTION }} />}
        autosize
        minRows={3}
        maxLength={MAX_DESCRIPTION}
        value={form.short_description}
        onChange={set('short_description')}
      />
      <TextInput
        label={<FormattedMessage id="org.allowedDomains" defaultMessage="Dominios permitidos" />}
        description={<FormattedMessage id="org.allowedDomainsHint" defaultMessage="Separados por comas, p. ej. miong.org, donar.miong.org" />}
        value={form.allowed_domains}
        onChange={set('allowed_domains')}
        error={domainError}
      />
      <Title order={3} size="h5" mt="xs">
        <FormattedMessage id="org.address" defaultMessage="Dirección" />
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <TextInput label={<FormattedMessage id="org.street" defaultMessage="Calle" />} value={form.street} onChange={set('street')} autoComplete="address-line1" />
        <TextInput label={<FormattedMessage id="org.number" defaultMessage="Número" />} value={form.number} onChange={set('number')} />
        <TextInput label={<FormattedMessage id="org.city" defaultMessage="Ciudad" />} value={form.city} onChange={set('city')} autoComplete="address-level2" />
        <TextInput label={<FormattedMessage id="org.state" defaultMessage="Provincia o estado" />} value={form.state} onChange={set('state')} autoComplete="address-level1" />
        <TextInput label={<FormattedMessage id="org.postalCode" defaultMessage="Código postal" />} value={form.postal_code} onChange={set('postal_code')} autoComplete="postal-code" />
      </SimpleGrid>
      <Title order={3} size="h5" mt="xs">
        <FormattedMessage id="org.contact" defaultMessage="Contacto administrativo" />
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <TextInput label={<FormattedMessage id="org.contactName" defaultMessage="Nombre" />} value={form.contact_name} onChange={set('contact_name')} />
        <TextInput label={<FormattedMessage id="signup.user.email" defaultMessage="E-mail" />} type="email" value={form.contact_email} onChange={set('contact_email')} />
        <TextInput label={<FormattedMessage id="org.contactPhone" defaultMessage="Teléfono" />} type="tel" value={form.contact_phone} onChange={set('contact_phone')} />
      </SimpleGrid>
      <Select
        label={<FormattedMessage id="org.timezone" defaultMessage="Zona horaria" />}
        data={timezones}
        value={form.timezone || null}
        onChange={(v) => setForm({ ...form, timezone: v ?? '' })}
        searchable
      />
    </FormSection>
  );
}

const CONSENTS: { key: keyof Permissions; label: ReactNode }[] = [
  { key: 'suggest_monthly_recurrence', label: <FormattedMessage id="org.consent.recurrence" defaultMessage="Sugerir la donación mensual" /> },
  { key: 'improve_donation_experience', label: <FormattedMessage id="org.consent.experience" defaultMessage="Mejorar la experiencia de donación" /> },
  { key: 'recover_rejected_donations', label: <FormattedMessage id="org.consent.recover" defaultMessage="Recuperar donaciones rechazadas" /> },
];

function Consents({ org, track }: { org: Organization; track: Track }) {
  const store = useStore();
  const [perms, setPerms] = useState<Permissions>(
    org.permissions ?? { suggest_monthly_recurrence: false, improve_donation_experience: false, recover_rejected_donations: false },
  );
  const toggle = async (key: keyof Permissions, value: boolean) => {
    const before = perms;
    setPerms({ ...perms, [key]: value });
    const res = await track(() => apiFetch<unknown>('/manage/organization/permissions', { method: 'PATCH', body: { [key]: value } }));
    if (res === undefined) setPerms(before);
    else await store(res);
  };
  return (
    <SectionCard
      id="org-consents"
      title={<FormattedMessage id="org.consents" defaultMessage="Contacto con tus donantes" />}
      lead={<FormattedMessage id="org.consentsLead" defaultMessage="Autorizas a Aporta a contactar a tus donantes para:" />}
    >
      {CONSENTS.map(({ key, label }) => (
        <Switch key={key} checked={perms[key]} onChange={(e) => toggle(key, e.currentTarget.checked)} label={label} />
      ))}
    </SectionCard>
  );
}
