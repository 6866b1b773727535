import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { DialogActions, GenericModal, SpinnerModal } from './GenericModal';

function renderModal(props: Partial<Parameters<typeof GenericModal>[0]> = {}) {
  const onClose = vi.fn();
  renderWithProviders(
    <GenericModal opened onClose={onClose} title="Título" subtitle="Subtítulo" {...props}>
      <p>Cuerpo</p>
    </GenericModal>,
  );
  return onClose;
}

const backdrop = () => document.querySelector('.mantine-Modal-overlay') as HTMLElement;

describe('GenericModal', () => {
  it('renders title, subtitle and body', () => {
    renderModal();
    expect(screen.getByRole('dialog')).toHaveTextContent('Título');
    expect(screen.getByText('Subtítulo')).toBeInTheDocument();
    expect(screen.getByText('Cuerpo')).toBeInTheDocument();
  });

  it('closes with the close icon, Escape and a backdrop click', async () => {
    const onClose = renderModal();
    await userEvent.click(screen.getByRole('button', { name: 'Cerrar' }));
    await userEvent.keyboard('{Escape}');
    fireEvent.mouseDown(backdrop());
    fireEvent.click(backdrop());
    expect(onClose).toHaveBeenCalledTimes(3);
  });

  it.each([
    ['pending', { pending: true }],
    ['not dismissible', { dismissible: false }],
  ])('cannot be closed while %s', async (_, props) => {
    const onClose = renderModal(props);
    expect(screen.getByRole('button', { name: 'Cerrar' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    fireEvent.mouseDown(backdrop());
    fireEvent.click(backdrop());
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('SpinnerModal', () => {
  it('announces its label and offers no close button', () => {
    renderWithProviders(<SpinnerModal opened label="Procesando" />);
    expect(screen.getByRole('status')).toHaveTextContent('Procesando');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});

describe('DialogActions', () => {
  it('puts Cancel before the dialog’s own buttons and disables it while busy', async () => {
    const onCancel = vi.fn();
    const { rerender } = renderWithProviders(
      <DialogActions onCancel={onCancel}>
        <button type="button">Eliminar</button>
      </DialogActions>,
    );
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['Cancelar', 'Eliminar']);
    await userEvent.click(buttons[0]!);
    expect(onCancel).toHaveBeenCalledOnce();
    rerender(
      <DialogActions onCancel={onCancel} busy>
        <button type="button">Eliminar</button>
      </DialogActions>,
    );
    expect(screen.getByRole('button', { name: 'Cancelar' })).toBeDisabled();
  });
});
