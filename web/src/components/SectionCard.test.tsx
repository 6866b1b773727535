import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { FormSection, SectionCard } from './SectionCard';

describe('SectionCard', () => {
  it('is a region named by its h2, with the lead and the aside', () => {
    renderWithProviders(
      <SectionCard id="s" title="Estado" lead="Cada 30 segundos." aside={<span>Operativo</span>}>
        <p>cuerpo</p>
      </SectionCard>,
    );
    expect(screen.getByRole('region', { name: 'Estado' })).toContainElement(screen.getByText('cuerpo'));
    expect(screen.getByRole('heading', { level: 2, name: 'Estado' })).toBeInTheDocument();
    expect(screen.getByText('Cada 30 segundos.')).toBeInTheDocument();
    expect(screen.getByText('Operativo')).toBeInTheDocument();
  });
});

describe('FormSection', () => {
  it('sends the form with its "Guardar" button', async () => {
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    renderWithProviders(
      <FormSection id="f" title="Mis datos" onSubmit={onSubmit}>
        <input aria-label="Nombre" />
      </FormSection>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(onSubmit).toHaveBeenCalledOnce();
  });

  it('names the button as told and shows it busy while saving', () => {
    renderWithProviders(
      <FormSection id="f" title="Contraseña" onSubmit={() => undefined} saving submitLabel="Cambiar contraseña">
        <input aria-label="Actual" />
      </FormSection>,
    );
    expect(screen.getByRole('button', { name: /Cambiar contraseña/ })).toHaveAttribute('data-loading', 'true');
  });
});
