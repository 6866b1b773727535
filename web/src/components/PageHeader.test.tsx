import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { PageHeader } from './PageHeader';

describe('PageHeader', () => {
  it('shows the h1, its lead and the action', () => {
    renderWithProviders(<PageHeader title="Donaciones" lead="Todas las donaciones." action={<button type="button">Exportar</button>} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Donaciones' })).toBeInTheDocument();
    expect(screen.getByText('Todas las donaciones.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exportar' })).toBeInTheDocument();
  });
});
