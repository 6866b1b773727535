import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { CopyLinkButton } from './CopyLinkButton';

describe('CopyLinkButton', () => {
  const writeText = vi.fn(() => Promise.resolve());
  beforeEach(() => {
    vi.useFakeTimers();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  });
  afterEach(() => vi.useRealTimers());

  it('copies the link and shows "copied" for exactly 3000 ms', async () => {
    renderWithProviders(<CopyLinkButton url="https://aporta.test/c/abc" />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copiar enlace' }));
    });
    expect(writeText).toHaveBeenCalledWith('https://aporta.test/c/abc');
    expect(screen.getByRole('button')).toHaveTextContent('¡Enlace copiado!');
    act(() => vi.advanceTimersByTime(2999));
    expect(screen.getByRole('button')).toHaveTextContent('¡Enlace copiado!');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('button')).toHaveTextContent('Copiar enlace');
  });
});
