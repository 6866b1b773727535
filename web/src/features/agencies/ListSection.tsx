import { Badge, Group, Paper, Title } from "@mantine/core";
import type { ColumnDef } from "@tanstack/react-table";
import { useState, type ReactNode } from "react";
import { errorText } from "../../api/client";
import { DataTable } from "../../components/DataTable";
import { showToast } from "../../components/Toasts";
import { Button } from "../../components/variants";

/**
 * One list of the agency page (authorised campaigns, people): a titled card with its add button, the table, and
 * whatever dialog edits a row (children).
 */
export function ListSection<T>({
  id,
  title,
  addLabel,
  onAdd,
  data,
  columns,
  getRowId,
  minWidth,
  empty,
  children,
}: {
  id: string;
  title: ReactNode;
  addLabel: ReactNode;
  /** undefined: nothing can be added (a discarded agency). */
  onAdd?: () => void;
  data: T[];
  columns: ColumnDef<T, unknown>[];
  getRowId: (row: T) => string;
  minWidth: number;
  empty: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: "md", sm: "lg" }}
      component="section"
      aria-labelledby={id}
    >
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {onAdd && (
          <Button variant="outline" onClick={onAdd}>
            {addLabel}
          </Button>
        )}
      </Group>
      <DataTable
        data={data}
        columns={columns}
        getRowId={getRowId}
        minWidth={minWidth}
        empty={empty}
      />
      {children}
    </Paper>
  );
}

/** A row action that marks its row busy while it runs and says a failure in a toast. */
export function useRowAction() {
  const [busy, setBusy] = useState<string>();
  const run = async (rowId: string, action: () => Promise<unknown>) => {
    setBusy(rowId);
    try {
      await action();
    } catch (e) {
      showToast({ type: "fail", message: errorText(e) });
    } finally {
      setBusy(undefined);
    }
  };
  return { busy, run };
}

/** A row's flags that are on, as badges (a campaign's options, a person's permissions). */
export function Flags({
  flags,
}: {
  flags: { on: boolean; label: ReactNode; color?: string }[];
}) {
  return (
    <Group gap={4}>
      {flags.map(
        (f, i) =>
          f.on && (
            <Badge key={i} variant="light" color={f.color}>
              {f.label}
            </Badge>
          ),
      )}
    </Group>
  );
}
