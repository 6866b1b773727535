import { Group, Pagination, ScrollArea, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type RowData } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import classes from './DataTable.module.css';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** The server's sort key for this column; a column without one does not sort. */
    sortKey?: string;
  }
}

/** A cell's second line, small and dimmed, broken anywhere so a long error or address never widens the table. */
export function CellNote({ children }: { children: ReactNode }) {
  return (
    <Text size="xs" c="dimmed" mt={2} style={{ overflowWrap: 'anywhere' }}>
      {children}
    </Text>
  );
}

/** A list's last column: the row's buttons at the right, under a header only screen readers read. */
export function actionsColumn<T>(header: ReactNode, buttons: (row: T) => ReactNode): ColumnDef<T, unknown> {
  return {
    id: 'actions',
    header: () => <VisuallyHidden>{header}</VisuallyHidden>,
    cell: ({ row }) => (
      <Group gap="xs" justify="flex-end" wrap="nowrap">
        {buttons(row.original)}
      </Group>
    ),
  };
}

/** "key" ascending or "-key" descending, as the list endpoints' `sort` parameter takes it. */
export function parseSort(sort: string | undefined, fallback: string): { key: string; desc: boolean } {
  const s = sort ?? fallback;
  return s.startsWith('-') ? { key: s.slice(1), desc: true } : { key: s, desc: false };
}

/** The next sort when a header is clicked: a new column starts descending, the same column flips; the fallback leaves the URL. */
export function toggleSort(current: string | undefined, key: string, fallback: string): string | undefined {
  const cur = parseSort(current, fallback);
  const next = `${cur.key === key && cur.desc ? '' : '-'}${key}`;
  return next === fallback ? undefined : next;
}

/** The sort the URL holds and how to change it. */
export interface ServerSort {
  value: string | undefined;
  /** The server's default order, which the URL leaves out. */
  fallback: string;
  onChange: (next: string | undefined) => void;
}

/** The page the URL holds (1-based), the rows per page, the server's total, and how to change page. */
export interface ServerPage {
  page: number;
  perPage: number;
  total: number;
  onChange: (page: number) => void;
}

export interface DataTableProps<T> {
  /** The rows of the current page, as the server sent them. */
  data: T[];
  columns: ColumnDef<T, unknown>[];
  /** A stable id per row (its uuid); defaults to the row's index. */
  getRowId?: (row: T) => string;
  caption?: ReactNode;
  /** The id of the heading that names the table, when it has no caption of its own. */
  labelledBy?: string;
  sort?: ServerSort;
  pagination?: ServerPage;
  /** data-* attributes for a row (tests and styles find rows by them). */
  rowAttributes?: (row: T) => Record<`data-${string}`, string>;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  minWidth?: number;
  /** A new page or order is on its way. */
  busy?: boolean;
  testId?: string;
}

/**
 * The one table of the app. Sorting and paging happen on the server: the table only shows the page
 * it is given and reports header clicks and page changes, which the caller keeps in the URL. Below
 * 640 px its first column stays put while the rest scrolls sideways.
 */
export function DataTable<T>({ data, columns, getRowId, caption, labelledBy, sort, pagination, rowAttributes, empty, minWidth, busy, testId }: DataTableProps<T>) {
  const intl = useIntl();
  const table = useReactTable({ data, columns, getRowId, getCoreRowModel: getCoreRowModel(), manualSorting: true, manualPagination: true });
  if (data.length === 0 && empty) return <>{empty}</>;

  const current = sort && parseSort(sort.value, sort.fallback);
  const pages = pagination ? Math.max(1, Math.ceil(pagination.total / pagination.perPage)) : 1;

  return (
    <div aria-busy={busy || undefined}>
      <ScrollArea type="auto" viewportProps={{ tabIndex: 0 }}>
        <Table className={classes.table} striped highlightOnHover verticalSpacing="sm" miw={minWidth} aria-labelledby={labelledBy} data-testid={testId}>
          {caption && <Table.Caption className={classes.caption}>{caption}</Table.Caption>}
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => {
                  const label = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
                  const key = sort && header.column.columnDef.meta?.sortKey;
                  const active = key && current?.key === key;
                  return (
                    <Table.Th key={header.id} scope="col" aria-sort={active ? (current.desc ? 'descending' : 'ascending') : undefined}>
                      {key ? (
                        <UnstyledButton onClick={() => sort.onChange(toggleSort(sort.value, key, sort.fallback))} fw={700} fz="sm">
                          {label} {active ? (current.desc ? '↓' : '↑') : ''}
                        </UnstyledButton>
                      ) : (
                        label
                      )}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {table.getRowModel().rows.map((row) => (
              <Table.Tr key={row.id} {...rowAttributes?.(row.original)}>
                {row.getVisibleCells().map((cell) => (
                  <Table.Td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {pagination && pages > 1 && (
        <Group justify="space-between" mt="sm" wrap="wrap" gap="xs">
          <Text size="sm" c="dimmed" aria-live="polite">
            <FormattedMessage
              id="table.range"
              defaultMessage="Mostrando {from}–{to} de {total}"
              values={{
                from: (pagination.page - 1) * pagination.perPage + 1,
                to: Math.min(pagination.page * pagination.perPage, pagination.total),
                total: pagination.total,
              }}
            />
          </Text>
          <Pagination
            size="sm"
            total={pages}
            value={pagination.page}
            onChange={pagination.onChange}
            getControlProps={(control) => ({
              'aria-label':
                control === 'previous'
                  ? intl.formatMessage({ id: 'table.previous', defaultMessage: 'Anterior' })
                  : control === 'next'
                    ? intl.formatMessage({ id: 'table.next', defaultMessage: 'Siguiente' })
                    : undefined,
            })}
          />
        </Group>
      )}
    </div>
  );
}
