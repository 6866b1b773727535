import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { DownloadByEmailDialog } from './DownloadByEmailDialog';

function renderDialog(onConfirm: () => Promise<void>) {
  const onClose = vi.fn();
  renderWithProviders(
    <DownloadByEmailDialog opened onClose={onClose} title="Descargar leads" description="Enviaremos el enlace a ana@ong.org" onConfirm={onConfirm} />,
  );
  return onClose;
}

describe('DownloadByEmailDialog', () => {
  it('cancels from idle', async () => {
    const onConfirm = vi.fn(() => Promise.resolve());
    const onClose = renderDialog(onConfirm);
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(onClose).toHaveBeenCalledOnce();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('blocks every way out while in process, then shows the sent message and spam reminder', async () => {
    let finish!: () => void;
    const onClose = renderDialog(() => new Promise<void>((resolve) => (finish = resolve)));
    await userEvent.click(screen.getByRole('button', { name: 'Enviar enlace' }));

    expect(screen.getByRole('button', { name: 'Cancelar' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cerrar' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();

    finish();
    expect(await screen.findByText('Te enviamos un enlace de descarga por correo electrónico.')).toBeInTheDocument();
    expect(screen.getByText(/revisa tu carpeta de spam/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Entendido' }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it("shows the caller's failure message and lets the user retry", async () => {
    const onConfirm = vi.fn().mockRejectedValueOnce(new Error('No hay leads en los últimos 90 días')).mockResolvedValueOnce(undefined);
    renderDialog(onConfirm);
    await userEvent.click(screen.getByRole('button', { name: 'Enviar enlace' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No hay leads en los últimos 90 días');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar enlace' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Entendido' })).toBeInTheDocument());
  });
});
