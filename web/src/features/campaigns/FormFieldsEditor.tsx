import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Badge, Button as MantineButton, Checkbox, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { GenericModal } from '../../components/GenericModal';
import { Button } from '../../components/variants';
import { nameOf } from '../../i18n/nameOf';
import { FIELD_TYPES, type FormField } from './api';

/** §9 drag-and-drop defaults: a 100 ms press before a drag starts, so clicks and scrolling still work. */
export const DND_DELAY_MS = 100;

const fieldTypeNames = defineMessages({
  address_bundle: { id: 'campaigns.field.address_bundle', defaultMessage: 'Dirección completa' },
  alt_email: { id: 'campaigns.field.alt_email', defaultMessage: 'Correo alternativo' },
  birthday: { id: 'campaigns.field.birthday', defaultMessage: 'Fecha de nacimiento' },
  cellphone: { id: 'campaigns.field.cellphone', defaultMessage: 'Celular' },
  cellphone_bundle: { id: 'campaigns.field.cellphone_bundle', defaultMessage: 'Celular con código de área' },
  checkbox: { id: 'campaigns.field.checkbox', defaultMessage: 'Casilla de verificación' },
  gender: { id: 'campaigns.field.gender', defaultMessage: 'Género' },
  occupation: { id: 'campaigns.field.occupation', defaultMessage: 'Ocupación' },
  phone: { id: 'campaigns.field.phone', defaultMessage: 'Teléfono' },
  phone_bundle: { id: 'campaigns.field.phone_bundle', defaultMessage: 'Teléfono con código de área' },
  select_options: { id: 'campaigns.field.select_options', defaultMessage: 'Lista de opciones' },
  textarea: { id: 'campaigns.field.textarea', defaultMessage: 'Texto largo' },
  textfield: { id: 'campaigns.field.textfield', defaultMessage: 'Texto corto' },
});

export const fieldTypeName = (intl: IntlShape, t: string) => nameOf(intl, fieldTypeNames, t);

/** The donor columns an answer may also fill (api/campaign RelatedDonorFields). */
const relatedOptions = (intl: IntlShape) => [
  { value: '', label: intl.formatMessage({ id: 'campaigns.fields.relatedNone', defaultMessage: 'Ninguno' }) },
  { value: 'donor.phone', label: intl.formatMessage({ id: 'campaigns.fields.related.phone', defaultMessage: 'Teléfono del donante' }) },
  { value: 'donor.cellphone', label: intl.formatMessage({ id: 'campaigns.fields.related.cellphone', defaultMessage: 'Celular del donante' }) },
  { value: 'donor.street', label: intl.formatMessage({ id: 'campaigns.fields.related.street', defaultMessage: 'Dirección del donante' }) },
  { value: 'donor.city', label: intl.formatMessage({ id: 'campaigns.fields.related.city', defaultMessage: 'Ciudad del donante' }) },
  { value: 'donor.state', label: intl.formatMessage({ id: 'campaigns.fields.related.state', defaultMessage: 'Provincia del donante' }) },
  { value: 'donor.zipcode', label: intl.formatMessage({ id: 'campaigns.fields.related.zipcode', defaultMessage: 'Código postal del donante' }) },
  { value: 'donor.gender', label: intl.formatMessage({ id: 'campaigns.fields.related.gender', defaultMessage: 'Género del donante' }) },
];

interface Keyed { id: string; field: FormField }
let seq = 0;
const keyed = (f: FormField): Keyed => ({ id: `ff-${++seq}`, field: f });

export function FormFieldsEditor({ fields, onSave }: { fields: FormField[]; onSave: (f: FormField[]) => Promise<unknown> }) {
  const intl = useIntl();
  const [items, setItems] = useState<Keyed[]>(() => fields.map(keyed));
  const [editing, setEditing] = useState<Keyed | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { delay: DND_DELAY_MS, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const commit = (next: Keyed[]) => {
    setItems(next);
    void onSave(next.map((k) => k.field));
  };
  function onDragEnd(e: DragEndEvent) {
    if (!e.over || e.active.id === e.over.id) return;
    const from = items.findIndex((i) => i.id === e.active.id);
    const to = items.findIndex((i) => i.id === e.over!.id);
    commit(arrayMove(items, from, to));
  }
  function add(type: string) {
    const k = keyed({ type, title: fieldTypeName(intl, type), label: fieldTypeName(intl, type), width: 'full', required: false, hide_on_mobile: false, value_related_to: '', options: type === 'select_options' ? [] : undefined });
    setEditing(k);
  }
  return (
    <Stack gap="md">
      <div>
        <Text fw={600} size="sm" mb={6}><FormattedMessage id="campaigns.fields.toolbox" defaultMessage="Agregar un campo" /></Text>
        <Group gap={6}>
          {FIELD_TYPES.map((t) => (
            <MantineButton key={t} size="compact-sm" variant="light" onClick={() => add(t)} data-field-type={t}>
              + {fieldTypeName(intl, t)}
            </MantineButton>
          ))}
        </Group>
      </div>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed"><FormattedMessage id="campaigns.fields.empty" defaultMessage="El formulario solo pide los datos básicos del donante y la tarjeta." /></Text>
      ) : (
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={items.map((i) => i.id)} strategy={verticalListSortingStrategy}>
            <Stack gap={6} component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {items.map((k) => (
                <SortableRow key={k.id} item={k} onEdit={() => setEditing(k)} onRemove={() => commit(items.filter((i) => i.id !== k.id))} />
              ))}
            </Stack>
          </SortableContext>
        </DndContext>
      )}
      {editing && (
        <FieldDialog
          item={editing}
          onClose={() => setEditing(null)}
          onSave={(f) => {
            const exists = items.some((i) => i.id === editing.id);
            commit(exists ? items.map((i) => (i.id === editing.id ? { ...i, field: f } : i)) : [...items, { id: editing.id, field: f }]);
            setEditing(null);
          }}
        />
      )}
    </Stack>
  );
}

function SortableRow({ item, onEdit, onRemove }: { item: Keyed; onEdit: () => void; onRemove: () => void }) {
  const intl = useIntl();
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: item.id });
  const f = item.field;
  return (
    <li ref={setNodeRef} style={{ transform: CSS.Transform.toString(transform), transition, zIndex: isDragging ? 2 : undefined }}>
      <Paper withBorder radius="md" p="xs" shadow={isDragging ? 'md' : undefined}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <ActionIcon variant="subtle" color="gray" {...attributes} {...listeners} style={{ cursor: 'grab' }}
              aria-label={intl.formatMessage({ id: 'campaigns.fields.drag', defaultMessage: 'Mover {title}' }, { title: f.title })}>
              <svg width="16" height="16" viewBox="0 0 24 24" fill="currentColor" aria-hidden><circle cx="9" cy="6" r="1.6" /><circle cx="15" cy="6" r="1.6" /><circle cx="9" cy="12" r="1.6" /><circle cx="15" cy="12" r="1.6" /><circle cx="9" cy="18" r="1.6" /><circle cx="15" cy="18" r="1.6" /></svg>
            </ActionIcon>
            <div>
              <Text fw={600} size="sm">{f.title}</Text>
              <Group gap={4}>
                <Badge size="xs" variant="light">{fieldTypeName(intl, f.type)}</Badge>
                {f.required && <Badge size="xs" color="red" variant="light"><FormattedMessage id="campaigns.fields.required" defaultMessage="Requerido" /></Badge>}
                {f.width === 'half' && <Badge size="xs" color="gray" variant="light"><FormattedMessage id="campaigns.fields.half" defaultMessage="Media fila" /></Badge>}
                {f.hide_on_mobile && <Badge size="xs" color="gray" variant="light"><FormattedMessage id="campaigns.fields.hiddenMobile" defaultMessage="Oculto en celular" /></Badge>}
              </Group>
            </div>
          </Group>
          <Group gap={4} wrap="nowrap">
            <MantineButton size="compact-sm" variant="subtle" onClick={onEdit}><FormattedMessage id="campaigns.fields.edit" defaultMessage="Editar" /></MantineButton>
            <MantineButton size="compact-sm" variant="subtle" color="red" onClick={onRemove}><FormattedMessage id="campaigns.fields.remove" defaultMessage="Quitar" /></MantineButton>
          </Group>
        </Group>
      </Paper>
    </li>
  );
}

function FieldDialog({ item, onClose, onSave }: { item: Keyed; onClose: () => void; onSave: (f: FormField) => void }) {
  const intl = useIntl();
  const [f, setF] = useState<FormField>(item.field);
  const [touched, setTouched] = useState(false);
  const required = intl.formatMessage({ id: 'campaigns.required', defaultMessage: 'Este campo es requerido' });
  const titleError = touched && !f.title.trim() ? required : undefined;
  return (
    <GenericModal opened onClose={onClose} title={<FormattedMessage id="campaigns.fields.dialog" defaultMessage="Campo del formulario" />}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (f.title.trim()) onSave({ ...f, title: f.title.trim() });
        }}
      >
        <Stack gap="sm">
          <TextInput label={<FormattedMessage id="campaigns.fields.title" defaultMessage="Título" />} value={f.title} error={titleError} required onChange={(e) => setF({ ...f, title: e.target.value })} />
          <TextInput label={<FormattedMessage id="campaigns.fields.label" defaultMessage="Etiqueta visible" />} value={f.label} onChange={(e) => setF({ ...f, label: e.target.value })} />
          <SimpleGrid cols={2}>
            <Select label={<FormattedMessage id="campaigns.fields.type" defaultMessage="Tipo" />} value={f.type} allowDeselect={false}
              data={FIELD_TYPES.map((t) => ({ value: t, label: fieldTypeName(intl, t) }))} onChange={(v) => v && setF({ ...f, type: v })} />
            <Select label={<FormattedMessage id="campaigns.fields.width" defaultMessage="Ancho" />} value={f.width} allowDeselect={false}
              data={[{ value: 'full', label: intl.formatMessage({ id: 'campaigns.fields.widthFull', defaultMessage: 'Fila completa' }) }, { value: 'half', label: intl.formatMessage({ id: 'campaigns.fields.widthHalf', defaultMessage: 'Media fila' }) }]}
              onChange={(v) => v && setF({ ...f, width: v as FormField['width'] })} />
          </SimpleGrid>
          <Select label={<FormattedMessage id="campaigns.fields.related" defaultMessage="Valor relacionado con" />} value={f.value_related_to}
            data={relatedOptions(intl)}
            onChange={(v) => setF({ ...f, value_related_to: v ?? '' })} />
          {f.type === 'select_options' && (
            <Textarea label={<FormattedMessage id="campaigns.fields.options" defaultMessage="Opciones (una por línea)" />} autosize minRows={3}
              value={(f.options ?? []).join('\n')} onChange={(e) => setF({ ...f, options: e.target.value.split('\n') })} />
          )}
          <Checkbox label={<FormattedMessage id="campaigns.fields.requiredLabel" defaultMessage="Requerido" />} checked={f.required} onChange={(e) => setF({ ...f, required: e.currentTarget.checked })} />
          <Checkbox label={<FormattedMessage id="campaigns.fields.hideMobile" defaultMessage="Ocultar en celulares" />} checked={f.hide_on_mobile} onChange={(e) => setF({ ...f, hide_on_mobile: e.currentTarget.checked })} />
          <Group justify="flex-end" mt="sm">
            <Button variant="ghost" onClick={onClose}><FormattedMessage id="dialog.cancel" defaultMessage="Cancelar" /></Button>
            <Button type="submit"><FormattedMessage id="campaigns.fields.save" defaultMessage="Guardar campo" /></Button>
          </Group>
        </Stack>
      </form>
    </GenericModal>
  );
}
