import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { FormModal } from './FormModal';

const modal = (submit: () => Promise<boolean>, onClose = vi.fn()) => {
  renderWithProviders(
    <FormModal opened onClose={onClose} title="Asignar plan" submit={submit} confirm="Asignar">
      <input aria-label="Motivo" required />
    </FormModal>,
  );
  return onClose;
};

describe('FormModal', () => {
  it('closes when submit answers true, even with an empty required field (no browser validation)', async () => {
    const submit = vi.fn(() => Promise.resolve(true));
    const onClose = modal(submit);
    await userEvent.click(screen.getByRole('button', { name: 'Asignar' }));
    expect(submit).toHaveBeenCalledOnce();
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('stays open when submit answers false', async () => {
    const onClose = modal(() => Promise.resolve(false));
    await userEvent.click(screen.getByRole('button', { name: 'Asignar' }));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows what submit threw and stays open', async () => {
    const onClose = modal(() => Promise.reject(new Error('El servidor no responde')));
    await userEvent.click(screen.getByRole('button', { name: 'Asignar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('El servidor no responde');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('cannot be cancelled while submitting', async () => {
    const onClose = modal(() => new Promise(() => {}));
    await userEvent.click(screen.getByRole('button', { name: 'Asignar' }));
    expect(screen.getByRole('button', { name: 'Cancelar' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
  });
});
