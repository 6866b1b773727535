import { Anchor, Select, Stack } from '@mantine/core';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { ApiError, fieldErrors } from '../../api/client';
import type { OrgUser } from '../../api/types.gen';
import { actionsColumn } from '../../components/DataTable';
import { FormModal } from '../../components/FormModal';
import { ListSection } from '../../components/ListSection';
import { PageHeader } from '../../components/PageHeader';
import { useRowAction } from '../../components/useRowAction';
import { Button } from '../../components/variants';
import type { CurrentUser } from '../accounts/api';
import { reactivateUser } from '../users/api';
import { NewPersonModal, PersonCell, usePersonForm } from '../users/person';
import { roleNames } from '../users/UsersPage';
import { agenciesQuery, agencyAdminsQuery, changeAgencyAdminRole, createAgency, discardAgencyAdmin, inviteAgencyAdmin, type Agency, type AgencySettings } from './api';
import { delayLabel, ModeBadge } from './labels';
import { SettingsFields } from './SettingsFields';

/** /manage/settings/agencies: the organisation's external teams and their administrators (spec §2). */
export function AgenciesPage({ me }: { me: CurrentUser }) {
  const [creating, setCreating] = useState(false);
  return (
    <Stack gap="lg">
      <PageHeader
        title={<FormattedMessage id="agencies.title" defaultMessage="Equipos externos" />}
        lead={<FormattedMessage id="agencies.lead" defaultMessage="Agencias que captan donantes cara a cara en tus campañas, con los permisos que les des." />}
        action={
          <Button onClick={() => setCreating(true)}>
            <FormattedMessage id="agencies.new" defaultMessage="Nuevo equipo" />
          </Button>
        }
      />
      <AgencyList />
      {me.abilities.includes('manage_users') && <AdminList />}
      <NewAgencyDialog opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}

function AgencyList() {
  const intl = useIntl();
  const { data } = useSuspenseQuery(agenciesQuery());
  const columns: ColumnDef<Agency, unknown>[] = [
    {
      id: 'name',
      header: intl.formatMessage({ id: 'agencies.col.name', defaultMessage: 'Equipo' }),
      cell: ({ row: { original: a } }) => (
        <Anchor fw={600} size="sm" renderRoot={(props) => <Link {...props} to="/manage/settings/agencies/$token" params={{ token: a.uuid }} />}>
          {a.agency_name}
        </Anchor>
      ),
    },
    { id: 'mode', header: intl.formatMessage({ id: 'agencies.col.mode', defaultMessage: 'Modo' }), cell: ({ row }) => <ModeBadge mode={row.original.mode} /> },
    { id: 'delay', header: intl.formatMessage({ id: 'agencies.col.delay', defaultMessage: 'Demora' }), cell: ({ row }) => delayLabel(intl, row.original.sync_delay) },
    {
      id: 'created',
      header: intl.formatMessage({ id: 'agencies.col.created', defaultMessage: 'Creado' }),
      cell: ({ row }) => <FormattedDate value={row.original.created_at} dateStyle="medium" />,
    },
  ];
  return (
    <ListSection
      id="agencies-list"
      title={<FormattedMessage id="agencies.list" defaultMessage="Equipos" />}
      data={data}
      columns={columns}
      getRowId={(a) => a.uuid}
      minWidth={520}
      empty={<FormattedMessage id="agencies.empty" defaultMessage="Todavía no tienes equipos externos." />}
    />
  );
}

const emptySettings: AgencySettings = { agency_name: '', mode: 'sandbox', sync_delay: 0 };

function NewAgencyDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [value, setValue] = useState<AgencySettings>(emptySettings);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async () => {
    try {
      const created = await createAgency({ ...value, agency_name: value.agency_name.trim() });
      await queryClient.invalidateQueries({ queryKey: ['agencies'] });
      setValue(emptySettings);
      setErrors({});
      await navigate({ to: '/manage/settings/agencies/$token', params: { token: created.agency.uuid } });
      return true;
    } catch (e) {
      setErrors(fieldErrors(e, 'agency_name'));
      return false;
    }
  };
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={<FormattedMessage id="agencies.newTitle" defaultMessage="Nuevo equipo externo" />}
      submit={submit}
      confirm={<FormattedMessage id="agencies.create" defaultMessage="Crear equipo" />}
    >
      <SettingsFields value={value} onChange={setValue} errors={errors} />
    </FormModal>
  );
}

/** Agency administrators: organisation people who manage external teams only. */
function AdminList() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const { data = [] } = useQuery(agencyAdminsQuery());
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<OrgUser>();
  const { busy, run } = useRowAction({ toast: true });
  const act = (u: OrgUser, work: (uuid: string) => Promise<unknown>) =>
    run(u.uuid, async () => {
      await work(u.uuid);
      await queryClient.invalidateQueries({ queryKey: ['users'] });
    });
  const columns: ColumnDef<OrgUser, unknown>[] = [
    {
      id: 'name',
      header: intl.formatMessage({ id: 'agencies.col.person', defaultMessage: 'Persona' }),
      cell: ({ row: { original: u } }) => <PersonCell name={u.full_name} email={u.email} />,
    },
    {
      id: 'state',
      header: intl.formatMessage({ id: 'agencies.col.state', defaultMessage: 'Estado' }),
      cell: ({ row }) =>
        row.original.status === 'pending' ? (
          <FormattedMessage id="agencies.admin.pending" defaultMessage="Invitación pendiente" />
        ) : row.original.status === 'discarded' ? (
          <FormattedMessage id="agencies.user.discarded" defaultMessage="Dado de baja" />
        ) : (
          <FormattedMessage id="agencies.user.active" defaultMessage="Activo" />
        ),
    },
    actionsColumn(<FormattedMessage id="agencies.col.actions" defaultMessage="Acciones" />, (u) => {
      const name = u.full_name || u.email;
      return u.status === 'discarded' ? (
        <Button size="sm" variant="ghost" loading={busy === u.uuid} onClick={() => act(u, reactivateUser)}
          aria-label={intl.formatMessage({ id: 'agencies.admin.reactivateNamed', defaultMessage: 'Reactivar a {name}' }, { name })}>
          <FormattedMessage id="agencies.reactivateUser" defaultMessage="Reactivar" />
        </Button>
      ) : (
        <>
          {u.status === 'active' && (
            <Button size="sm" variant="outline" disabled={busy === u.uuid} onClick={() => setEditing(u)}
              aria-label={intl.formatMessage({ id: 'agencies.admin.editNamed', defaultMessage: 'Editar a {name}' }, { name })}>
              <FormattedMessage id="agencies.admin.edit" defaultMessage="Editar" />
            </Button>
          )}
          <Button size="sm" variant="ghost" loading={busy === u.uuid} onClick={() => act(u, discardAgencyAdmin)}
            aria-label={intl.formatMessage({ id: 'agencies.admin.discardNamed', defaultMessage: 'Dar de baja a {name}' }, { name })}>
            <FormattedMessage id="agencies.discardUser" defaultMessage="Dar de baja" />
          </Button>
        </>
      );
    }),
  ];
  return (
    <ListSection
      id="agency-admins"
      title={<FormattedMessage id="agencies.admins" defaultMessage="Administradores de equipos" />}
      lead={<FormattedMessage id="agencies.adminsLead" defaultMessage="Tienen acceso completo a los equipos externos y a nada más." />}
      action={
        <Button variant="outline" onClick={() => setInviting(true)}>
          <FormattedMessage id="agencies.newAdmin" defaultMessage="Nuevo administrador" />
        </Button>
      }
      data={data}
      columns={columns}
      getRowId={(u) => u.uuid}
      minWidth={480}
      empty={<FormattedMessage id="agencies.adminsEmpty" defaultMessage="Sin administradores de equipos." />}
    >
      <NewAdminDialog opened={inviting} onClose={() => setInviting(false)} />
      {editing && <EditAdminDialog admin={editing} onClose={() => setEditing(undefined)} />}
    </ListSection>
  );
}

const ADMIN_ROLES = ['agency_admin', 'administrator', 'operator', 'supervisor'] as const;

/** The edit-admin form (spec §2): the person's role in the organisation; another role than agency administrator takes them off the list. */
function EditAdminDialog({ admin, onClose }: { admin: OrgUser; onClose: () => void }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [role, setRole] = useState<string>(admin.role);
  const [error, setError] = useState<string>();
  const label = (r: (typeof ADMIN_ROLES)[number]) =>
    r === 'agency_admin' ? intl.formatMessage({ id: 'agencies.admin.role', defaultMessage: 'Administración de equipos' }) : intl.formatMessage(roleNames[r]);
  const submit = async () => {
    try {
      if (role !== admin.role) await changeAgencyAdminRole(admin.uuid, role);
    } catch (e) {
      const fields = e instanceof ApiError ? e.fields : {};
      if (fields.role) {
        setError(fields.role);
        return false;
      }
      throw e;
    }
    await queryClient.invalidateQueries({ queryKey: ['users'] });
    return true;
  };
  return (
    <FormModal
      opened
      onClose={onClose}
      title={<FormattedMessage id="agencies.admin.editTitle" defaultMessage="Editar administrador" />}
      subtitle={admin.full_name ? `${admin.full_name} · ${admin.email}` : admin.email}
      submit={submit}
      confirm={<FormattedMessage id="common.save" defaultMessage="Guardar" />}
    >
      <Select
        label={<FormattedMessage id="agencies.admin.roleLabel" defaultMessage="Rol en la organización" />}
        description={<FormattedMessage id="agencies.admin.roleHint" defaultMessage="Con otro rol deja de ser administrador de equipos y tiene los permisos de ese rol." />}
        data={ADMIN_ROLES.map((r) => ({ value: r, label: label(r) }))}
        value={role}
        onChange={(v) => v && setRole(v)}
        allowDeselect={false}
        error={error}
        comboboxProps={{ withinPortal: true }}
      />
    </FormModal>
  );
}

function NewAdminDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = usePersonForm({ email: '', first_name: '', last_name: '' }, async (person) => {
    await inviteAgencyAdmin(person);
    await queryClient.invalidateQueries({ queryKey: ['users'] });
  });
  return (
    <NewPersonModal
      form={form}
      opened={opened}
      onClose={onClose}
      title={<FormattedMessage id="agencies.newAdmin" defaultMessage="Nuevo administrador" />}
      subtitle={<FormattedMessage id="agencies.newAdminLead" defaultMessage="Recibirá una invitación por e-mail." />}
      confirm={<FormattedMessage id="agencies.invite" defaultMessage="Invitar" />}
    />
  );
}
