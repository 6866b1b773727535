import { Alert, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { actionsColumn, DataTable } from '../../components/DataTable';
import { SectionCard } from '../../components/SectionCard';
import { useRowAction } from '../../components/useRowAction';
import { Button } from '../../components/variants';
import { createRule, deleteRule, objectsOf, patchRule, type CrmRule, type CrmSetup } from './api';
import { attributeLabel, label } from './labels';

const classes = ['donor', 'donation', 'campaign'];
const syncRules = ['always_override', 'override_if_empty'];
const FORM = 'form:';

/** The mapping: which of our attributes goes to which field of which CRM object, how, and with which value mapping. */
export function RulesSection({ setup, onChange }: { setup: CrmSetup; onChange: () => Promise<unknown> }) {
  const intl = useIntl();
  const action = useRowAction();
  const run = (rowId: string, fn: () => Promise<unknown>) =>
    action.run(rowId, async () => {
      await fn();
      await onChange();
    });
  const fieldLabel = (r: CrmRule) => setup.objects[r.crm_object]?.fields.find((f) => f.name === r.field)?.label ?? r.field;
  const columns: ColumnDef<CrmRule, unknown>[] = [
    {
      id: 'attribute',
      header: () => <FormattedMessage id="crm.col.attribute" defaultMessage="Atributo" />,
      cell: ({ row: { original: r } }) => (
        <>
          {label(intl, r.class_name)} · {attributeLabel(intl, r.class_name, r.attribute)}
        </>
      ),
    },
    {
      id: 'field',
      header: () => <FormattedMessage id="crm.col.field" defaultMessage="Campo del CRM" />,
      cell: ({ row: { original: r } }) => (
        <>
          {label(intl, r.crm_object, true)} · {fieldLabel(r)}
        </>
      ),
    },
    {
      id: 'rule',
      header: () => <FormattedMessage id="crm.col.rule" defaultMessage="Regla" />,
      cell: ({ row: { original: r } }) => (
        <Select
          aria-label={intl.formatMessage({ id: 'crm.col.rule', defaultMessage: 'Regla' })}
          data={syncRules.map((v) => ({ value: v, label: label(intl, v) }))}
          value={r.sync_rule}
          allowDeselect={false}
          w={200}
          onChange={(v) =>
            v &&
            run(r.id, () => patchRule(setup.uuid, r.id, { attribute: r.attribute, crm_object: r.crm_object, field: r.field, sync_rule: v, value_map: r.value_map }))
          }
          size="xs"
        />
      ),
    },
    {
      id: 'values',
      header: () => <FormattedMessage id="crm.col.values" defaultMessage="Valores" />,
      cell: ({ row: { original: r } }) => (
        <Text size="sm">
          {Object.entries(r.value_map)
            .map(([k, v]) => `${k} → ${v}`)
            .join(', ') || '—'}
        </Text>
      ),
    },
    actionsColumn(<FormattedMessage id="crm.col.actions" defaultMessage="Acciones" />, (r) => (
      <Button
        variant="ghost"
        size="sm"
        onClick={() => run(r.id, () => deleteRule(setup.uuid, r.id))}
        aria-label={intl.formatMessage({ id: 'crm.deleteRule', defaultMessage: 'Quitar {attribute}' }, { attribute: attributeLabel(intl, r.class_name, r.attribute) })}
      >
        <FormattedMessage id="crm.remove" defaultMessage="Quitar" />
      </Button>
    )),
  ];

  return (
    <SectionCard
      id="crm-rules"
      title={<FormattedMessage id="crm.rules" defaultMessage="Mapeo de atributos" />}
      lead={<FormattedMessage id="crm.rulesLead" defaultMessage="Cada atributo se envía a un campo del CRM. Validamos el campo con el CRM antes de guardarlo." />}
    >
      {action.error && (
        <Alert color="red" role="alert">
          {action.error}
        </Alert>
      )}
      <DataTable
        data={setup.rules}
        columns={columns}
        getRowId={(r) => r.id}
        minWidth={640}
        empty={
          <Text c="dimmed" size="sm">
            <FormattedMessage id="crm.noRules" defaultMessage="Todavía no envías ningún atributo." />
          </Text>
        }
      />
      <NewRule setup={setup} onCreate={(rule) => run('new', () => createRule(setup.uuid, rule))} />
    </SectionCard>
  );
}

/** The form that adds a mapping; its value mapping lists the attribute's values beside the CRM picklist's. */
function NewRule({ setup, onCreate }: { setup: CrmSetup; onCreate: (rule: Omit<CrmRule, 'id'>) => Promise<unknown> }) {
  const intl = useIntl();
  const [className, setClassName] = useState('donor');
  const [attribute, setAttribute] = useState<string | null>(null);
  const [formTitle, setFormTitle] = useState('');
  const [object, setObject] = useState<string | null>('contact');
  const [field, setField] = useState<string | null>(null);
  const [syncRule, setSyncRule] = useState('always_override');
  const [valueMap, setValueMap] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  const attrs = setup.attributes.filter((a) => a.class_name === className);
  const attr = attrs.find((a) => a.attribute === attribute);
  const objects = (objectsOf[className] ?? []).filter((o) => setup.objects[o]);
  const fields = object ? (setup.objects[object]?.fields ?? []) : [];
  const target = fields.find((f) => f.name === field);
  const mappable = attr?.values && target?.picklist ? attr.values : [];

  const changeClass = (c: string) => {
    setClassName(c);
    setAttribute(null);
    setObject(objectsOf[c]?.[0] ?? null);
    setField(null);
    setValueMap({});
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!attribute || !object || !field) return;
    setPending(true);
    const vm = Object.fromEntries(Object.entries(valueMap).filter(([k, v]) => v && (mappable.length === 0 || mappable.includes(k))));
    await onCreate({
      class_name: className,
      attribute: attribute === FORM ? FORM + formTitle.trim() : attribute,
      crm_object: object,
      field,
      sync_rule: syncRule,
      value_map: vm,
    });
    setPending(false);
  };

  return (
    <form onSubmit={submit} aria-label={intl.formatMessage({ id: 'crm.addRule', defaultMessage: 'Agregar mapeo' })}>
      <Stack gap="sm">
        <Text fw={600}>
          <FormattedMessage id="crm.addRule" defaultMessage="Agregar mapeo" />
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          <Select
            label={intl.formatMessage({ id: 'crm.form.class', defaultMessage: 'Qué' })}
            data={classes.map((c) => ({ value: c, label: label(intl, c) }))}
            value={className}
            onChange={(v) => v && changeClass(v)}
            allowDeselect={false}
          />
          <Select
            label={intl.formatMessage({ id: 'crm.form.attribute', defaultMessage: 'Atributo' })}
            data={[
              ...attrs.map((a) => ({ value: a.attribute, label: attributeLabel(intl, className, a.attribute) })),
              ...(className === 'donation' ? [{ value: FORM, label: intl.formatMessage({ id: 'crm.form.formField', defaultMessage: 'Campo del formulario…' }) }] : []),
            ]}
            value={attribute}
            onChange={(v) => {
              setAttribute(v);
              setValueMap({});
            }}
            searchable
            required
          />
          {attribute === FORM && (
            <TextInput
              label={intl.formatMessage({ id: 'crm.form.formTitle', defaultMessage: 'Título del campo del formulario' })}
              value={formTitle}
              onChange={(e) => setFormTitle(e.currentTarget.value)}
              required
            />
          )}
          <Select
            label={intl.formatMessage({ id: 'crm.form.object', defaultMessage: 'Objeto del CRM' })}
            data={objects.map((o) => ({ value: o, label: `${label(intl, o, true)} (${setup.objects[o]?.sobject ?? o})` }))}
            value={object}
            onChange={(v) => {
              setObject(v);
              setField(null);
            }}
            allowDeselect={false}
          />
          <Select
            label={intl.formatMessage({ id: 'crm.form.field', defaultMessage: 'Campo del CRM' })}
            data={fields.map((f) => ({ value: f.name, label: `${f.label} (${f.name})` }))}
            value={field}
            onChange={setField}
            searchable
            required
          />
          <Select
            label={intl.formatMessage({ id: 'crm.col.rule', defaultMessage: 'Regla' })}
            data={syncRules.map((v) => ({ value: v, label: label(intl, v) }))}
            value={syncRule}
            onChange={(v) => v && setSyncRule(v)}
            allowDeselect={false}
          />
        </SimpleGrid>
        {mappable.length > 0 && (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              <FormattedMessage id="crm.valueMap" defaultMessage="Traducción de valores" />
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              {mappable.map((v) => (
                <Select
                  key={v}
                  label={v}
                  data={target?.picklist ?? []}
                  value={valueMap[v] ?? null}
                  onChange={(x) => setValueMap((m) => ({ ...m, [v]: x ?? '' }))}
                  clearable
                />
              ))}
            </SimpleGrid>
          </Stack>
        )}
        <Group>
          <Button type="submit" variant="secondary" loading={pending} disabled={!attribute || !field}>
            <FormattedMessage id="crm.addRule" defaultMessage="Agregar mapeo" />
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
