import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { EmptyState } from './EmptyState';

describe('EmptyState', () => {
  it('shows title, description and the learn-more link', () => {
    renderWithProviders(<EmptyState title="Sin campañas" description="Crea tu primera campaña." learnMoreHref="/ayuda" />);
    expect(screen.getByRole('heading', { name: 'Sin campañas' })).toBeInTheDocument();
    expect(screen.getByText('Crea tu primera campaña.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Más información' })).toHaveAttribute('href', '/ayuda');
  });

  it('omits the link when there is nowhere to learn more', () => {
    renderWithProviders(<EmptyState title="Sin campañas" description="…" />);
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });
});
