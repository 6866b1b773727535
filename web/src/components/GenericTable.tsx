import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState, type ReactNode } from 'react';
import { DataTable } from './DataTable';

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

/** A short list the client already holds whole, paged in the browser; the rendering is DataTable's. */
export function GenericTable<T extends object>({ data, columns, caption, pageSize = 10, empty }: GenericTableProps<T>) {
  const resolvedColumns = useMemo(() => columns ?? columnsFromFirstItem(data), [columns, data]);
  const [page, setPage] = useState(1);
  const rows = data.slice((page - 1) * pageSize, page * pageSize);
  return (
    <DataTable
      data={rows}
      columns={resolvedColumns}
      caption={caption}
      empty={empty}
      pagination={{ page, perPage: pageSize, total: data.length, onChange: setPage }}
    />
  );
}
