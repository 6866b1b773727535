import { Badge, PasswordInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState, type FormEvent } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { ApiError, errorText } from '../../api/client';
import { actionsColumn } from '../../components/DataTable';
import { ListSection } from '../../components/ListSection';
import { SaveStatusBanner } from '../../components/SaveStatusBanner';
import { showToast } from '../../components/Toasts';
import { useRowAction } from '../../components/useRowAction';
import { useSaveStatus } from '../../components/useSaveStatus';
import { Button } from '../../components/variants';
import { changePassword, updateMyData, type CurrentUser } from '../accounts/api';
import { checkPassword, checkPersonName } from '../accounts/rules';
import { discardUser, inviteUser, reactivateUser, resendInvitation, usersQuery, type Invitation, type OrgUser } from './api';
import { NewPersonModal, PersonCell, usePersonForm } from './person';
import { PageHeader } from '../../components/PageHeader';
import { FormSection } from '../../components/SectionCard';
import { nameOf } from '../../i18n/nameOf';

const ROLES = ['administrator', 'operator', 'supervisor'] as const;
export const roleNames = defineMessages({
  administrator: { id: 'users.role.administrator', defaultMessage: 'Administración' },
  operator: { id: 'users.role.operator', defaultMessage: 'Operación' },
  supervisor: { id: 'users.role.supervisor', defaultMessage: 'Supervisión' },
});

/** A role's translated name; an unknown role (one added on the server only) as it is. */
function RoleName({ role }: { role: string }) {
  const intl = useIntl();
  return <>{nameOf(intl, roleNames, role)}</>;
}

function UserState({ status }: { status: OrgUser['status'] }) {
  if (status === 'discarded')
    return (
      <Badge color="gray" variant="light">
        <FormattedMessage id="users.discarded" defaultMessage="Dado de baja" />
      </Badge>
    );
  if (status === 'pending')
    return (
      <Badge color="blue" variant="light">
        <FormattedMessage id="users.pending" defaultMessage="Invitación pendiente" />
      </Badge>
    );
  return (
    <Badge color="green" variant="light">
      <FormattedMessage id="users.active" defaultMessage="Activo" />
    </Badge>
  );
}

export function UsersPage({ me }: { me: CurrentUser }) {
  const save = useSaveStatus();
  return (
    <Stack gap="lg">
      <SaveStatusBanner status={save.status} visible={save.visible} />
      <PageHeader title={<FormattedMessage id="users.title" defaultMessage="Usuarios" />} />
      <UserList me={me} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <MyData me={me} track={save.track} />
        <ChangePassword />
      </SimpleGrid>
    </Stack>
  );
}

function UserList({ me }: { me: CurrentUser }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const { data } = useSuspenseQuery(usersQuery()); // the route's loader has it in the cache
  const [inviting, setInviting] = useState(false);
  const { busy, run } = useRowAction({ toast: true });
  const canManage = me.abilities.includes('manage_users') || me.role === 'administrator';

  const act = (u: OrgUser, work: () => Promise<unknown>, done?: string) =>
    run(u.uuid, async () => {
      await work();
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      if (done) showToast({ type: 'success', message: done });
    });

  const columns: ColumnDef<OrgUser, unknown>[] = [
    {
      id: 'name',
      header: intl.formatMessage({ id: 'users.col.name', defaultMessage: 'Nombre' }),
      cell: ({ row: { original: u } }) => <PersonCell name={u.full_name} email={u.email} />,
    },
    { id: 'role', header: intl.formatMessage({ id: 'users.col.role', defaultMessage: 'Rol' }), cell: ({ row }) => <RoleName role={row.original.role} /> },
    { id: 'state', header: intl.formatMessage({ id: 'users.col.state', defaultMessage: 'Estado' }), cell: ({ row }) => <UserState status={row.original.status} /> },
    actionsColumn(<FormattedMessage id="users.col.actions" defaultMessage="Acciones" />, (u) => (
      <>
          {canManage && u.status === 'pending' && (
            <>
              <Button
                size="sm"
                variant="outline"
                loading={busy === u.uuid}
                onClick={() => act(u, () => resendInvitation(u.uuid), intl.formatMessage({ id: 'users.invitedToast', defaultMessage: 'Enviamos la invitación a {email}.' }, { email: u.email }))}
                aria-label={intl.formatMessage({ id: 'users.resendNamed', defaultMessage: 'Reenviar la invitación a {name}' }, { name: u.email })}
              >
                <FormattedMessage id="users.resend" defaultMessage="Reenviar" />
              </Button>
              <Button
                size="sm"
                variant="ghost"
                disabled={busy === u.uuid}
                onClick={() => act(u, () => discardUser(u.uuid))}
                aria-label={intl.formatMessage({ id: 'users.cancelNamed', defaultMessage: 'Cancelar la invitación a {name}' }, { name: u.email })}
              >
                <FormattedMessage id="users.cancelInvitation" defaultMessage="Cancelar" />
              </Button>
            </>
          )}
          {canManage && u.status !== 'pending' && u.uuid !== me.uuid && (
            <Button
              size="sm"
              variant={u.discarded_at ? 'outline' : 'ghost'}
              loading={busy === u.uuid}
              onClick={() => act(u, () => (u.discarded_at ? reactivateUser(u.uuid) : discardUser(u.uuid)))}
              aria-label={intl.formatMessage(
                u.discarded_at ? { id: 'users.reactivateNamed', defaultMessage: 'Reactivar a {name}' } : { id: 'users.discardNamed', defaultMessage: 'Dar de baja a {name}' },
                { name: u.full_name || u.email },
              )}
            >
              {u.discarded_at ? <FormattedMessage id="users.reactivate" defaultMessage="Reactivar" /> : <FormattedMessage id="users.discard" defaultMessage="Dar de baja" />}
            </Button>
          )}
      </>
    )),
  ];

  return (
    <ListSection
      id="users-list"
      title={<FormattedMessage id="users.list" defaultMessage="Equipo" />}
      action={
        canManage && (
          <Button onClick={() => setInviting(true)}>
            <FormattedMessage id="users.invite" defaultMessage="Invitar usuario" />
          </Button>
        )
      }
      data={data}
      columns={columns}
      getRowId={(u) => u.uuid}
      minWidth={560}
    >
      <InviteDialog opened={inviting} onClose={() => setInviting(false)} />
    </ListSection>
  );
}

function InviteDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const form = usePersonForm<Invitation>(
    { email: '', first_name: '', last_name: '', role: 'operator' },
    async (invitation) => {
      await inviteUser(invitation);
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      showToast({ type: 'success', message: intl.formatMessage({ id: 'users.invitedToast', defaultMessage: 'Enviamos la invitación a {email}.' }, { email: invitation.email }) });
    },
    { requireNames: true },
  );
  return (
    <NewPersonModal
      form={form}
      opened={opened}
      onClose={onClose}
      title={<FormattedMessage id="users.inviteTitle" defaultMessage="Invitar usuario" />}
      subtitle={<FormattedMessage id="users.inviteSubtitle" defaultMessage="Recibirá un e-mail con un enlace para aceptar la invitación. Será parte del equipo cuando la acepte." />}
      confirm={<FormattedMessage id="users.sendInvite" defaultMessage="Enviar invitación" />}
    >
      <Select
        label={<FormattedMessage id="users.col.role" defaultMessage="Rol" />}
        data={ROLES.map((r) => ({ value: r, label: intl.formatMessage(roleNames[r]) }))}
        value={form.value.role}
        allowDeselect={false}
        onChange={(v) => form.setValue({ ...form.value, role: v ?? 'operator' })}
        error={form.errors.role}
      />
    </NewPersonModal>
  );
}

function MyData({ me, track }: { me: CurrentUser; track: <T>(save: () => Promise<T>) => Promise<T | undefined> }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [first, setFirst] = useState(me.first_name ?? me.full_name.split(' ')[0] ?? '');
  const [last, setLast] = useState(me.last_name ?? me.full_name.split(' ').slice(1).join(' '));
  const [errors, setErrors] = useState<{ first?: string; last?: string }>({});
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const f = checkPersonName(first, 'first');
    const l = checkPersonName(last, 'last');
    setErrors({ first: f && intl.formatMessage(f), last: l && intl.formatMessage(l) });
    if (f || l) return;
    const updated = await track(() => updateMyData({ first_name: first.trim(), last_name: last.trim() }));
    if (updated) queryClient.setQueryData(['user'], updated);
  };
  return (
    <FormSection id="my-data" title={<FormattedMessage id="users.myData" defaultMessage="Mis datos" />} onSubmit={submit}>
      <TextInput label={<FormattedMessage id="signup.user.first" defaultMessage="Nombre" />} required value={first} onChange={(e) => setFirst(e.currentTarget.value)} error={errors.first} autoComplete="given-name" />
      <TextInput label={<FormattedMessage id="signup.user.last" defaultMessage="Apellido" />} required value={last} onChange={(e) => setLast(e.currentTarget.value)} error={errors.last} autoComplete="family-name" />
      <TextInput label={<FormattedMessage id="signup.user.email" defaultMessage="E-mail" />} value={me.email} readOnly disabled />
    </FormSection>
  );
}

function ChangePassword() {
  const intl = useIntl();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [errors, setErrors] = useState<{ current?: string; next?: string }>({});
  const [saving, setSaving] = useState(false);
  const toggle = { 'aria-label': intl.formatMessage({ id: 'signup.user.passwordToggle', defaultMessage: 'Mostrar u ocultar la contraseña' }) };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const n = checkPassword(next);
    const c = current ? undefined : intl.formatMessage({ id: 'account.rule.passwordRequired', defaultMessage: 'Ingresa una contraseña.' });
    setErrors({ current: c, next: n && intl.formatMessage(n) });
    if (n || c) return;
    setSaving(true);
    try {
      await changePassword({ current_password: current, password: next });
      setCurrent('');
      setNext('');
      showToast({ type: 'success', message: intl.formatMessage({ id: 'users.passwordChanged', defaultMessage: 'Tu contraseña se cambió.' }) });
    } catch (e) {
      const fields = e instanceof ApiError ? e.fields : {};
      setErrors({ current: fields.current_password, next: fields.password ?? (fields.current_password ? undefined : errorText(e)) });
    } finally {
      setSaving(false);
    }
  };
  return (
    <FormSection
      id="change-pw"
      title={<FormattedMessage id="users.changePassword" defaultMessage="Cambiar contraseña" />}
      onSubmit={submit}
      saving={saving}
      submitLabel={<FormattedMessage id="users.changePassword" defaultMessage="Cambiar contraseña" />}
    >
      <PasswordInput label={<FormattedMessage id="users.currentPassword" defaultMessage="Contraseña actual" />} required autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.currentTarget.value)} error={errors.current} visibilityToggleButtonProps={toggle} />
      <PasswordInput
        label={<FormattedMessage id="users.newPassword" defaultMessage="Contraseña nueva" />}
        description={<FormattedMessage id="signup.user.passwordHint" defaultMessage="Mínimo 12 caracteres, con una mayúscula y un número, sin espacios." />}
        required
        autoComplete="new-password"
        value={next}
        onChange={(e) => setNext(e.currentTarget.value)}
        error={errors.next}
        visibilityToggleButtonProps={toggle}
      />
    </FormSection>
  );
}
