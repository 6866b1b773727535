import { Group, ScrollArea, Table, Text } from '@mantine/core';
import {
  flexRender,
  getCoreRowModel,
  getPaginationRowModel,
  useReactTable,
  type ColumnDef,
} from '@tanstack/react-table';
import { useMemo, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import classes from './GenericTable.module.css';
import { Button } from './variants';

export interface GenericTableProps<T extends object> {
  data: T[];
  /** Defaults to one column per key of the first item, headed by the key. */
  columns?: ColumnDef<T, unknown>[];
  caption: ReactNode;
  pageSize?: number;
  empty?: ReactNode;
}

function columnsFromFirstItem<T extends object>(data: T[]): ColumnDef<T, unknown>[] {
  const first = data[0];
  if (!first) return [];
  return Object.keys(first).map((key) => ({
    id: key,
    header: key,
    accessorFn: (row: T) => row[key as keyof T],
    cell: ({ getValue }) => String(getValue() ?? ''),
  }));
}

/** Client-paginated table; below 640 px its first column stays put while the rest scrolls sideways. */
export function GenericTable<T extends object>({ data, columns, caption, pageSize = 10, empty }: GenericTableProps<T>) {
  const resolvedColumns = useMemo(() => columns ?? columnsFromFirstItem(data), [columns, data]);
  const table = useReactTable({
    data,
    columns: resolvedColumns,
    getCoreRowModel: getCoreRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    initialState: { pagination: { pageIndex: 0, pageSize } },
  });

  if (data.length === 0 && empty) return <>{empty}</>;

  const { pageIndex } = table.getState().pagination;
  const from = data.length === 0 ? 0 : pageIndex * pageSize + 1;
  const to = Math.min((pageIndex + 1) * pageSize, data.length);

  return (
    <div>
      <ScrollArea type="auto">
        <Table className={classes.table} striped highlightOnHover verticalSpacing="sm">
          <Table.Caption className={classes.caption}>{caption}</Table.Caption>
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => (
                  <Table.Th key={header.id} scope="col">
                    {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                  </Table.Th>
                ))}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {table.getRowModel().rows.map((row) => (
              <Table.Tr key={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <Table.Td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {table.getPageCount() > 1 && (
        <Group justify="space-between" mt="sm" wrap="wrap" gap="xs">
          <Text size="sm" c="dimmed" aria-live="polite">
            <FormattedMessage
              id="table.range"
              defaultMessage="Mostrando {from}–{to} de {total}"
              values={{ from, to, total: data.length }}
            />
          </Text>
          <Group gap="xs">
            <Button variant="outline" size="sm" onClick={() => table.previousPage()} disabled={!table.getCanPreviousPage()}>
              <FormattedMessage id="table.previous" defaultMessage="Anterior" />
            </Button>
            <Button variant="outline" size="sm" onClick={() => table.nextPage()} disabled={!table.getCanNextPage()}>
              <FormattedMessage id="table.next" defaultMessage="Siguiente" />
            </Button>
          </Group>
        </Group>
      )}
    </div>
  );
}
