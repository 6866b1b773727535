import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { GenericTable } from './GenericTable';

const donors = Array.from({ length: 42 }, (_, i) => ({ name: `Donante ${i + 1}`, amount: (i + 1) * 100 }));

describe('GenericTable', () => {
  it('takes its columns from the first item', () => {
    renderWithProviders(<GenericTable data={donors} caption="Donantes" />);
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers).toEqual(['name', 'amount']);
  });

  it('pages through the rows with previous and next', async () => {
    renderWithProviders(<GenericTable data={donors} caption="Donantes" />);
    const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
    const previous = screen.getByRole('button', { name: 'Anterior' });
    const next = screen.getByRole('button', { name: 'Siguiente' });

    expect(screen.getByText('Mostrando 1–10 de 42')).toBeInTheDocument();
    expect(rows()).toHaveLength(10);
    expect(previous).toBeDisabled();

    await userEvent.click(next);
    expect(screen.getByText('Mostrando 11–20 de 42')).toBeInTheDocument();
    expect(rows()[0]).toHaveTextContent('Donante 11');

    await userEvent.click(next);
    await userEvent.click(next);
    await userEvent.click(next);
    expect(screen.getByText('Mostrando 41–42 de 42')).toBeInTheDocument();
    expect(rows()).toHaveLength(2);
    expect(next).toBeDisabled();

    await userEvent.click(previous);
    expect(screen.getByText('Mostrando 31–40 de 42')).toBeInTheDocument();
  });

  it('hides the pager when everything fits on one page', () => {
    renderWithProviders(<GenericTable data={donors.slice(0, 3)} caption="Donantes" />);
    expect(screen.queryByRole('button', { name: 'Siguiente' })).not.toBeInTheDocument();
  });

  it('shows the empty block when there are no rows', () => {
    renderWithProviders(<GenericTable data={[]} caption="Donantes" empty={<p>Nada aún</p>} />);
    expect(screen.getByText('Nada aún')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
