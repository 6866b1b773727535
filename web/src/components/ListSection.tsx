import type { ReactNode } from 'react';
import { DataTable, type DataTableProps } from './DataTable';
import { SectionCard } from './SectionCard';

/**
 * A SectionCard holding one list: an optional action at the title's right (add, invite), the table, and whatever
 * dialog edits a row (children).
 */
export function ListSection<T>({
  id,
  title,
  lead,
  action,
  children,
  ...table
}: { id: string; title: ReactNode; lead?: ReactNode; action?: ReactNode; children?: ReactNode } & DataTableProps<T>) {
  return (
    <SectionCard id={id} title={title} lead={lead} aside={action}>
      <DataTable {...table} />
      {children}
    </SectionCard>
  );
}
