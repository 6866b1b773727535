import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ColumnDef } from '@tanstack/react-table';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { actionsColumn, DataTable, parseSort, toggleSort } from './DataTable';

interface Row { uuid: string; name: string; amount: number }
const rows: Row[] = [
  { uuid: 'a', name: 'Ana', amount: 100 },
  { uuid: 'b', name: 'Beto', amount: 200 },
];
const columns: ColumnDef<Row, unknown>[] = [
  { id: 'name', header: 'Nombre', cell: ({ row }) => row.original.name },
  { id: 'amount', header: 'Monto', cell: ({ row }) => row.original.amount, meta: { sortKey: 'amount' } },
];

describe('sort parameter', () => {
  it('reads and toggles "-key" against the default order', () => {
    expect(parseSort(undefined, '-created_at')).toEqual({ key: 'created_at', desc: true });
    expect(toggleSort(undefined, 'created_at', '-created_at')).toBe('created_at');
    expect(toggleSort('created_at', 'created_at', '-created_at')).toBeUndefined();
    expect(toggleSort(undefined, 'amount', '-created_at')).toBe('-amount');
    expect(toggleSort('-amount', 'amount', '-created_at')).toBe('amount');
  });
});

describe('DataTable', () => {
  it('asks the server for another order and page, and marks the active sort', async () => {
    const onSort = vi.fn();
    const onPage = vi.fn();
    renderWithProviders(
      <DataTable
        data={rows}
        columns={columns}
        getRowId={(r) => r.uuid}
        rowAttributes={(r) => ({ 'data-row': r.uuid })}
        sort={{ value: '-amount', fallback: '-created_at', onChange: onSort }}
        pagination={{ page: 2, perPage: 2, total: 5, onChange: onPage }}
      />,
    );
    expect(screen.getByRole('columnheader', { name: /Monto/ })).toHaveAttribute('aria-sort', 'descending');
    expect(screen.queryByRole('button', { name: /Nombre/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /^Monto/ }));
    expect(onSort).toHaveBeenCalledWith('amount');
    expect(screen.getByText('Mostrando 3–4 de 5')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(onPage).toHaveBeenCalledWith(3);
    expect(document.querySelector('tr[data-row="b"]')).toHaveTextContent('Beto');
  });
});

describe('actionsColumn', () => {
  it("puts the row's buttons last, under a header only screen readers read", () => {
    const withActions = [...columns, actionsColumn<Row>('Acciones', (r) => <button>Editar {r.name}</button>)];
    renderWithProviders(<DataTable data={rows} columns={withActions} getRowId={(r) => r.uuid} />);
    expect(screen.getByRole('columnheader', { name: 'Acciones' })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /Beto/ })).toContainElement(screen.getByRole('button', { name: 'Editar Beto' }));
  });
});
