import {
  Alert,
  Anchor,
  Badge,
  Checkbox,
  Group,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
} from "@mantine/core";
import { useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { ColumnDef } from "@tanstack/react-table";
import { useState, type FormEvent, type ReactNode } from "react";
import { defineMessages, FormattedMessage, useIntl } from "react-intl";
import { ApiError, errorText, fieldErrors } from "../../api/client";
import type { Campaign } from "../../api/types.gen";
import { checkedField } from "../../components/checkedField";
import { actionsColumn } from "../../components/DataTable";
import { FormModal } from "../../components/FormModal";
import { ListSection } from "../../components/ListSection";
import { PageHeader } from "../../components/PageHeader";
import { FormSection, SectionCard } from "../../components/SectionCard";
import { showToast } from "../../components/Toasts";
import { useRowAction } from "../../components/useRowAction";
import { Button } from "../../components/variants";
import { checkEmail } from "../accounts/rules";
import { PersonCell, PersonFields, trimPerson } from "../users/person";
import {
  addAgencyUser,
  AGENCY_ROLES,
  agencyQuery,
  associateCampaign,
  authorisableCampaignsQuery,
  discardAgency,
  discardAgencyUser,
  dissociateCampaign,
  editAgencyUser,
  reactivateAgencyUser,
  updateAgency,
  type AgencyDetail,
  type AgencyPerson,
  type AgencySettings,
  type AgencyUser,
  type Association,
} from "./api";
import { Flags, ModeBadge, RoleName, roleNames } from "./labels";
import { SettingsFields } from "./SettingsFields";

/** /manage/settings/agencies/$token: one agency's settings, authorised campaigns and people (spec §2). */
export function AgencyPage({ token }: { token: string }) {
  const { data } = useSuspenseQuery(agencyQuery(token));
  const discarded = data.agency.discarded_at !== null;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/manage/settings/agencies" size="sm">
        ←{" "}
        <FormattedMessage
          id="agencies.back"
          defaultMessage="Equipos externos"
        />
      </Anchor>
      <PageHeader
        title={
          <Group gap="sm">
            {data.agency.agency_name} <ModeBadge mode={data.agency.mode} />
          </Group>
        }
      />
      {discarded ? (
        <Alert color="gray" role="status">
          <FormattedMessage
            id="agencies.discardedNote"
            defaultMessage="Este equipo fue dado de baja: sus personas ya no tienen acceso."
          />
        </Alert>
      ) : (
        <AgencySettingsForm token={token} data={data} />
      )}
      <Campaigns token={token} data={data} disabled={discarded} />
      <People token={token} data={data} disabled={discarded} />
      {!discarded && (
        <DiscardAgency token={token} name={data.agency.agency_name} />
      )}
    </Stack>
  );
}

/** A campaign's options for the team, as its row's badges and its dialog's switches name them. */
const CAMPAIGN_OPTIONS = ["allow_one_time", "allow_other_amount"] as const;
const optionNames = defineMessages({
  allow_one_time: {
    id: "agencies.assoc.oneTime",
    defaultMessage: "Permite donación única",
  },
  allow_other_amount: {
    id: "agencies.assoc.other",
    defaultMessage: "Permite otro monto",
  },
});

/** A person's permissions: short on their row's badges, explained on their dialog's checkboxes. */
const PERMISSIONS = ["acquisition", "management"] as const;
const permissionNames = defineMessages({
  acquisition: { id: "agencies.perm.acquisition", defaultMessage: "Captación" },
  management: { id: "agencies.perm.management", defaultMessage: "Gestión" },
});
const permissionHints = defineMessages({
  acquisition: {
    id: "agencies.perm.acquisitionLong",
    defaultMessage: "Captación: registrar donantes nuevos",
  },
  management: {
    id: "agencies.perm.managementLong",
    defaultMessage:
      "Gestión: cambiar monto o medio de pago, cancelar y reactivar donaciones",
  },
});
const permissionColor = { acquisition: undefined, management: "grape" };

function useRefresh(token: string) {
  const queryClient = useQueryClient();
  return (next?: AgencyDetail) => {
    if (next) queryClient.setQueryData(agencyQuery(token).queryKey, next);
    return queryClient.invalidateQueries({ queryKey: ["agencies"] });
  };
}

function AgencySettingsForm({
  token,
  data,
}: {
  token: string;
  data: AgencyDetail;
}) {
  const intl = useIntl();
  const refresh = useRefresh(token);
  const a = data.agency;
  const [value, setValue] = useState<AgencySettings>({
    agency_name: a.agency_name,
    mode: a.mode as AgencySettings["mode"],
    sync_delay: a.sync_delay,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      await refresh(
        await updateAgency(token, {
          ...value,
          agency_name: value.agency_name.trim(),
        }),
      );
      setErrors({});
      showToast({
        type: "success",
        message: intl.formatMessage({
          id: "agencies.saved",
          defaultMessage: "Guardado correctamente",
        }),
      });
    } catch (e) {
      setErrors(fieldErrors(e, "agency_name"));
    } finally {
      setSaving(false);
    }
  };
  return (
    <FormSection
      id="agency-settings"
      title={
        <FormattedMessage
          id="agencies.settings"
          defaultMessage="Configuración"
        />
      }
      onSubmit={submit}
      saving={saving}
    >
      <SettingsFields value={value} onChange={setValue} errors={errors} />
    </FormSection>
  );
}

/** What each of the team's lists is given: the team, its page's data and whether it is discarded (read-only). */
interface TeamListProps {
  token: string;
  data: AgencyDetail;
  disabled: boolean;
}

function Campaigns({ token, data, disabled }: TeamListProps) {
  const intl = useIntl();
  const refresh = useRefresh(token);
  const { busy, run } = useRowAction({ toast: true });
  const remove = (c: Campaign) =>
    run(c.uuid, async () => refresh(await dissociateCampaign(token, c.uuid)));
  const columns: ColumnDef<Campaign, unknown>[] = [
    {
      id: "title",
      header: intl.formatMessage({
        id: "agencies.col.campaign",
        defaultMessage: "Campaña",
      }),
      cell: ({ row }) => (
        <Text fw={600} size="sm">
          {row.original.title}
        </Text>
      ),
    },
    {
      id: "amounts",
      header: intl.formatMessage({
        id: "agencies.col.amounts",
        defaultMessage: "Montos",
      }),
      cell: ({ row }) =>
        row.original.amounts.map((m) => m.formatted).join(" · ") || "—",
    },
    {
      id: "options",
      header: intl.formatMessage({
        id: "agencies.col.options",
        defaultMessage: "Opciones",
      }),
      cell: ({ row: { original: c } }) => (
        <Flags
          flags={CAMPAIGN_OPTIONS.map((option) => ({
            on: c[option],
            label: <FormattedMessage {...optionNames[option]} />,
          }))}
        />
      ),
    },
  ];
  return (
    <TeamList
      id="agency-campaigns"
      title={
        <FormattedMessage
          id="agencies.campaigns"
          defaultMessage="Campañas autorizadas"
        />
      }
      newLabel={
        <FormattedMessage
          id="agencies.associate"
          defaultMessage="Asociar campaña"
        />
      }
      data={data.campaigns}
      columns={columns}
      actions={(c, edit) => (
        <>
          <EditButton
            onClick={edit}
            label={intl.formatMessage(
              {
                id: "agencies.assoc.editNamed",
                defaultMessage: "Editar {name}",
              },
              { name: c.title },
            )}
          />
          <Button
            size="sm"
            variant="ghost"
            loading={busy === c.uuid}
            onClick={() => remove(c)}
            aria-label={intl.formatMessage(
              {
                id: "agencies.assoc.removeNamed",
                defaultMessage: "Quitar {name}",
              },
              { name: c.title },
            )}
          >
            <FormattedMessage id="agencies.remove" defaultMessage="Quitar" />
          </Button>
        </>
      )}
      rowName={(c) => c.title}
      dialog={(existing, frame) => (
        <AssociationDialog
          token={token}
          data={data}
          existing={existing}
          frame={frame}
        />
      )}
      disabled={disabled}
      minWidth={560}
      empty={
        <FormattedMessage
          id="agencies.campaignsEmpty"
          defaultMessage="Todavía no autorizaste campañas."
        />
      }
    />
  );
}

function AssociationDialog({
  token,
  data,
  existing,
  frame,
}: {
  token: string;
  data: AgencyDetail;
  existing?: Campaign;
  frame: TeamDialogFrame;
}) {
  const intl = useIntl();
  const refresh = useRefresh(token);
  const { data: campaigns } = useSuspenseQuery(authorisableCampaignsQuery());
  const taken = new Set(data.campaigns.map((c) => c.uuid));
  const [campaign, setCampaign] = useState(existing?.uuid ?? "");
  const [value, setValue] = useState<Association>({
    allow_one_time: existing?.allow_one_time ?? false,
    allow_other_amount: existing?.allow_other_amount ?? false,
    amounts: existing?.amounts.map((m) => m.decimal) ?? [],
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async () => {
    if (!campaign) {
      setErrors({
        campaign: intl.formatMessage({
          id: "form.required",
          defaultMessage: "Este campo es requerido",
        }),
      });
      return false;
    }
    try {
      await refresh(
        await associateCampaign(token, campaign, value, Boolean(existing)),
      );
      return true;
    } catch (e) {
      const fields = e instanceof ApiError ? e.fields : {};
      const amountError = Object.entries(fields).find(([k]) =>
        k.startsWith("amounts"),
      )?.[1];
      setErrors(
        amountError ? { amounts: amountError } : { campaign: errorText(e) },
      );
      return false;
    }
  };
  return (
    <TeamDialog frame={frame} submit={submit}>
      {!existing && (
        <Select
          label={
            <FormattedMessage
              id="agencies.col.campaign"
              defaultMessage="Campaña"
            />
          }
          data={campaigns
            .filter((c) => !taken.has(c.uuid))
            .map((c) => ({ value: c.uuid, label: c.title }))}
          value={campaign || null}
          onChange={(v) => setCampaign(v ?? "")}
          searchable
          nothingFoundMessage={intl.formatMessage({
            id: "agencies.noCampaigns",
            defaultMessage: "No hay campañas para asociar.",
          })}
          error={errors.campaign}
          data-autofocus
        />
      )}
      {CAMPAIGN_OPTIONS.map((option) => (
        <Switch
          key={option}
          label={<FormattedMessage {...optionNames[option]} />}
          {...checkedField(value, setValue, option)}
        />
      ))}
      <TagsInput
        label={
          <FormattedMessage
            id="agencies.assoc.amounts"
            defaultMessage="Montos disponibles"
          />
        }
        description={
          <FormattedMessage
            id="agencies.assoc.amountsHint"
            defaultMessage="Escribe un monto y presiona Enter (por ejemplo 1500 o 1500.50)."
          />
        }
        value={value.amounts}
        onChange={(amounts) => setValue({ ...value, amounts })}
        maxTags={8}
        error={errors.amounts}
      />
    </TeamDialog>
  );
}

function People({ token, data, disabled }: TeamListProps) {
  const intl = useIntl();
  const refresh = useRefresh(token);
  const { busy, run } = useRowAction({ toast: true });
  const toggle = (u: AgencyUser) =>
    run(u.uuid, async () => {
      await (u.status === "discarded"
        ? reactivateAgencyUser(token, u.uuid)
        : discardAgencyUser(token, u.uuid));
      await refresh();
    });
  const columns: ColumnDef<AgencyUser, unknown>[] = [
    {
      id: "name",
      header: intl.formatMessage({
        id: "agencies.col.person",
        defaultMessage: "Persona",
      }),
      cell: ({ row: { original: u } }) => (
        <PersonCell
          name={`${u.first_name} ${u.last_name}`.trim()}
          email={u.email}
        />
      ),
    },
    {
      id: "role",
      header: intl.formatMessage({
        id: "agencies.col.role",
        defaultMessage: "Rol",
      }),
      cell: ({ row }) => <RoleName role={row.original.role} />,
    },
    {
      id: "permissions",
      header: intl.formatMessage({
        id: "agencies.col.permissions",
        defaultMessage: "Permisos",
      }),
      cell: ({ row: { original: u } }) => (
        <Flags
          flags={PERMISSIONS.map((permission) => ({
            on: u[permission],
            color: permissionColor[permission],
            label: <FormattedMessage {...permissionNames[permission]} />,
          }))}
        />
      ),
    },
    {
      id: "state",
      header: intl.formatMessage({
        id: "agencies.col.state",
        defaultMessage: "Estado",
      }),
      cell: ({ row }) =>
        row.original.status === "discarded" ? (
          <Badge color="gray" variant="light">
            <FormattedMessage
              id="agencies.user.discarded"
              defaultMessage="Dado de baja"
            />
          </Badge>
        ) : (
          <Badge color="green" variant="light">
            <FormattedMessage
              id="agencies.user.active"
              defaultMessage="Activo"
            />
          </Badge>
        ),
    },
  ];
  return (
    <TeamList
      id="agency-people"
      title={
        <FormattedMessage
          id="agencies.people"
          defaultMessage="Personas del equipo"
        />
      }
      newLabel={
        <FormattedMessage
          id="agencies.newUser"
          defaultMessage="Nueva persona"
        />
      }
      data={data.users}
      columns={columns}
      actions={(u, edit) => {
        const name = `${u.first_name} ${u.last_name}`.trim() || u.email;
        return (
          <>
            {u.status !== "discarded" && (
              <EditButton
                onClick={edit}
                label={intl.formatMessage(
                  {
                    id: "agencies.user.editNamed",
                    defaultMessage: "Editar a {name}",
                  },
                  { name },
                )}
              />
            )}
            <Button
              size="sm"
              variant={u.status === "discarded" ? "outline" : "ghost"}
              loading={busy === u.uuid}
              onClick={() => toggle(u)}
              aria-label={intl.formatMessage(
                u.status === "discarded"
                  ? {
                      id: "agencies.user.reactivateNamed",
                      defaultMessage: "Reactivar a {name}",
                    }
                  : {
                      id: "agencies.admin.discardNamed",
                      defaultMessage: "Dar de baja a {name}",
                    },
                { name },
              )}
            >
              {u.status === "discarded" ? (
                <FormattedMessage
                  id="agencies.reactivate"
                  defaultMessage="Reactivar"
                />
              ) : (
                <FormattedMessage
                  id="agencies.discardUser"
                  defaultMessage="Dar de baja"
                />
              )}
            </Button>
          </>
        );
      }}
      rowName={(u) => `${u.first_name} ${u.last_name}`}
      dialog={(existing, frame) => (
        <PersonDialog token={token} existing={existing} frame={frame} />
      )}
      disabled={disabled}
      minWidth={640}
      empty={
        <FormattedMessage
          id="agencies.peopleEmpty"
          defaultMessage="Todavía no hay personas en este equipo."
        />
      }
    />
  );
}

/**
 * One of the team's lists (authorised campaigns, people): its rows with their buttons, a button that adds a row and
 * the dialog that adds or edits one; once the team is discarded, the rows alone.
 */
function TeamList<T extends { uuid: string }>({
  newLabel,
  columns,
  actions,
  rowName,
  dialog,
  disabled,
  ...list
}: {
  id: string;
  title: ReactNode;
  newLabel: ReactNode;
  data: T[];
  columns: ColumnDef<T, unknown>[];
  /** The row's buttons; `edit` opens the dialog on the row. */
  actions: (row: T, edit: () => void) => ReactNode;
  /** How the dialog that edits a row is titled (the one that adds a row is titled as the add button). */
  rowName: (row: T) => ReactNode;
  /** The dialog that adds a row (`existing` undefined) or edits `existing`, in the frame TeamDialog takes. */
  dialog: (existing: T | undefined, frame: TeamDialogFrame) => ReactNode;
  disabled: boolean;
  minWidth: number;
  empty: ReactNode;
}) {
  const [editing, setEditing] = useState<T | "new">();
  return (
    <ListSection
      {...list}
      action={
        !disabled && (
          <Button variant="outline" onClick={() => setEditing("new")}>
            {newLabel}
          </Button>
        )
      }
      columns={[
        ...columns,
        actionsColumn<T>(
          <FormattedMessage
            id="agencies.col.actions"
            defaultMessage="Acciones"
          />,
          (row) => !disabled && actions(row, () => setEditing(row)),
        ),
      ]}
      getRowId={(row) => row.uuid}
    >
      {editing &&
        dialog(editing === "new" ? undefined : editing, {
          title: editing === "new" ? newLabel : rowName(editing),
          onClose: () => setEditing(undefined),
        })}
    </ListSection>
  );
}

interface TeamDialogFrame {
  title: ReactNode;
  onClose: () => void;
}

/** The dialog of a team list's row, as TeamList frames it, saved with Guardar. */
function TeamDialog({
  frame,
  subtitle,
  submit,
  children,
}: {
  frame: TeamDialogFrame;
  subtitle?: ReactNode;
  submit: () => Promise<boolean>;
  children: ReactNode;
}) {
  return (
    <FormModal
      opened
      {...frame}
      subtitle={subtitle}
      submit={submit}
      confirm={<FormattedMessage id="agencies.save" defaultMessage="Guardar" />}
    >
      {children}
    </FormModal>
  );
}

/** A row's Edit button, named for the row to a screen reader. */
function EditButton({
  label,
  onClick,
}: {
  label: string;
  onClick: () => void;
}) {
  return (
    <Button size="sm" variant="outline" onClick={onClick} aria-label={label}>
      <FormattedMessage id="agencies.edit" defaultMessage="Editar" />
    </Button>
  );
}

function PersonDialog({
  token,
  existing,
  frame,
}: {
  token: string;
  existing?: AgencyUser;
  frame: TeamDialogFrame;
}) {
  const intl = useIntl();
  const refresh = useRefresh(token);
  const [person, setPerson] = useState<AgencyPerson>({
    email: existing?.email ?? "",
    first_name: existing?.first_name ?? "",
    last_name: existing?.last_name ?? "",
    role: existing?.role ?? "operator",
    acquisition: existing?.acquisition ?? true,
    management: existing?.management ?? false,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async () => {
    const trimmed = trimPerson(person);
    if (!existing) {
      const problem = checkEmail(trimmed.email);
      if (problem) {
        setErrors({ email: intl.formatMessage(problem) });
        return false;
      }
    }
    try {
      if (existing)
        await editAgencyUser(token, existing.uuid, {
          role: trimmed.role,
          acquisition: trimmed.acquisition,
          management: trimmed.management,
        });
      else await addAgencyUser(token, trimmed);
    } catch (e) {
      setErrors(fieldErrors(e, "email"));
      return false;
    }
    await refresh();
    if (!existing)
      showToast({
        type: "success",
        message: intl.formatMessage(
          {
            id: "agencies.userAdded",
            defaultMessage: "Enviamos a {email} cómo elegir su contraseña.",
          },
          { email: trimmed.email },
        ),
      });
    return true;
  };
  return (
    <TeamDialog
      frame={frame}
      subtitle={
        !existing && (
          <FormattedMessage
            id="agencies.newUserLead"
            defaultMessage="Recibirá un e-mail para elegir su contraseña y entrar al área del equipo."
          />
        )
      }
      submit={submit}
    >
      {!existing && (
        <PersonFields value={person} onChange={setPerson} errors={errors} />
      )}
      <Select
        label={<FormattedMessage id="agencies.col.role" defaultMessage="Rol" />}
        data={AGENCY_ROLES.map((r) => ({
          value: r,
          label: intl.formatMessage(roleNames[r]),
        }))}
        value={person.role}
        allowDeselect={false}
        onChange={(v) => setPerson({ ...person, role: v ?? "operator" })}
        error={errors.role}
      />
      <Stack gap="xs" role="group" aria-labelledby="person-permissions">
        <Text size="sm" fw={500} id="person-permissions">
          <FormattedMessage
            id="agencies.col.permissions"
            defaultMessage="Permisos"
          />
        </Text>
        {PERMISSIONS.map((permission) => (
          <Checkbox
            key={permission}
            label={<FormattedMessage {...permissionHints[permission]} />}
            {...checkedField(person, setPerson, permission)}
          />
        ))}
      </Stack>
    </TeamDialog>
  );
}

function DiscardAgency({ token, name }: { token: string; name: string }) {
  const refresh = useRefresh(token);
  const [confirming, setConfirming] = useState(false);
  return (
    <SectionCard
      id="agency-discard"
      title={
        <FormattedMessage
          id="agencies.discard"
          defaultMessage="Dar de baja el equipo"
        />
      }
      lead={
        <FormattedMessage
          id="agencies.discardLead"
          defaultMessage="Sus personas pierden el acceso y se cierran sus sesiones al instante."
        />
      }
      aside={
        <Button variant="destructive" onClick={() => setConfirming(true)}>
          <FormattedMessage
            id="agencies.discard"
            defaultMessage="Dar de baja el equipo"
          />
        </Button>
      }
    >
      <FormModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        destructive
        title={
          <FormattedMessage
            id="agencies.discardConfirm"
            defaultMessage="¿Dar de baja {name}?"
            values={{ name }}
          />
        }
        subtitle={
          <FormattedMessage
            id="agencies.discardLead"
            defaultMessage="Sus personas pierden el acceso y se cierran sus sesiones al instante."
          />
        }
        submit={async () => {
          await refresh(await discardAgency(token));
          return true;
        }}
        confirm={
          <FormattedMessage
            id="agencies.discard"
            defaultMessage="Dar de baja el equipo"
          />
        }
      >
        {null}
      </FormModal>
    </SectionCard>
  );
}
