import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { renderWithProviders } from '../test/render';
import { ApiForm } from './ApiForm';
import { useApiForm } from './useApiForm';

function Form({ send }: { send: () => Promise<unknown> }) {
  const form = useApiForm(send);
  return (
    <ApiForm form={form} submit="Conectar CRM">
      <input aria-label="Nombre" />
    </ApiForm>
  );
}

describe('ApiForm', () => {
  it('sends the form with its submit button and shows no alert while nothing failed', async () => {
    const send = vi.fn(() => Promise.resolve());
    renderWithProviders(<Form send={send} />);
    await userEvent.click(screen.getByRole('button', { name: 'Conectar CRM' }));
    expect(send).toHaveBeenCalledOnce();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a failure no input explains above the fields', async () => {
    renderWithProviders(<Form send={() => Promise.reject(new ApiError(502, 'crm.unreachable', 'El CRM no responde'))} />);
    await userEvent.click(screen.getByRole('button', { name: 'Conectar CRM' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('El CRM no responde');
  });
});
