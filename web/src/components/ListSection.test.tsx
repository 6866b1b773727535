import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { ListSection } from './ListSection';

const columns = [{ id: 'name', header: 'Nombre', cell: ({ row }: { row: { original: { name: string } } }) => row.original.name }];

describe('ListSection', () => {
  it('is a region named by its title, with the action and the rows', () => {
    renderWithProviders(
      <ListSection id="people" title="Personas" action={<button>Nueva persona</button>} data={[{ name: 'Ana' }]} columns={columns} labelledBy="people">
        <p>diálogo</p>
      </ListSection>,
    );
    const region = screen.getByRole('region', { name: 'Personas' });
    expect(region).toContainElement(screen.getByRole('button', { name: 'Nueva persona' }));
    expect(screen.getByRole('table', { name: 'Personas' })).toContainElement(screen.getByRole('cell', { name: 'Ana' }));
    expect(region).toContainElement(screen.getByText('diálogo'));
  });

  it('shows the empty text instead of a table without rows', () => {
    renderWithProviders(<ListSection id="people" title="Personas" data={[]} columns={columns} empty="Sin personas" />);
    expect(screen.getByText('Sin personas')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
