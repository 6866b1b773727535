import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { MoreActionsMenu } from './MoreActionsMenu';

describe('MoreActionsMenu', () => {
  it('opens from the three-dot button and runs the chosen action', async () => {
    const onEdit = vi.fn();
    renderWithProviders(<MoreActionsMenu actions={[{ label: 'Editar', onClick: onEdit }]} />);
    await userEvent.click(screen.getByRole('button', { name: 'Más acciones' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Editar' }));
    expect(onEdit).toHaveBeenCalledOnce();
  });

  it('closes on a click outside', async () => {
    renderWithProviders(
      <div>
        <p>fuera</p>
        <MoreActionsMenu actions={[{ label: 'Editar', onClick: () => {} }]} />
      </div>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Más acciones' }));
    expect(screen.getByRole('menu')).toBeInTheDocument();
    fireEvent.mouseDown(screen.getByText('fuera'));
    fireEvent.click(screen.getByText('fuera'));
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  });
});
