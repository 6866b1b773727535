import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { showToast, ToastStack } from './Toasts';

afterEach(() => {
  act(() => notifications.clean());
  vi.useRealTimers();
});

describe('toasts', () => {
  it('close by themselves after 7000 ms', () => {
    vi.useFakeTimers();
    renderWithProviders(<ToastStack />);
    act(() => {
      showToast({ type: 'success', message: 'Campaña publicada' });
    });
    expect(screen.getByText('Campaña publicada')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(6999));
    expect(screen.getByText('Campaña publicada')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    // Hiding starts at 7000 ms; the exit transition is scheduled by that render, so it needs its own tick.
    act(() => vi.advanceTimersByTime(500));
    expect(screen.queryByText('Campaña publicada')).not.toBeInTheDocument();
  });

  it('close with their close button', async () => {
    renderWithProviders(<ToastStack />);
    act(() => {
      showToast({ type: 'fail', message: 'No se pudo publicar' });
    });
    const toast = screen.getByText('No se pudo publicar').closest('[role="alert"]') as HTMLElement;
    await userEvent.click(toast.querySelector('button') as HTMLElement);
    await waitFor(() => expect(screen.queryByText('No se pudo publicar')).not.toBeInTheDocument());
  });
});
