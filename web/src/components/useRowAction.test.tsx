import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useRowAction } from './useRowAction';

vi.mock('./Toasts', () => ({ showToast: vi.fn() }));
const { showToast } = await import('./Toasts');

describe('useRowAction', () => {
  it('marks the row busy while its action runs', async () => {
    const { result } = renderHook(() => useRowAction());
    let finish!: () => void;
    let running!: Promise<void>;
    act(() => {
      running = result.current.run('row-1', () => new Promise<void>((resolve) => (finish = resolve)));
    });
    expect(result.current.busy).toBe('row-1');
    await act(async () => {
      finish();
      await running;
    });
    expect(result.current.busy).toBeUndefined();
    expect(result.current.error).toBeUndefined();
  });

  it('keeps the failure for an alert and clears it on the next action', async () => {
    const { result } = renderHook(() => useRowAction());
    await act(() => result.current.run('row-1', () => Promise.reject(new Error('Sin conexión'))));
    expect(result.current.error).toBe('Sin conexión');
    expect(result.current.busy).toBeUndefined();
    await act(() => result.current.run('row-2', () => Promise.resolve()));
    expect(result.current.error).toBeUndefined();
  });

  it('says the failure in a toast instead when asked', async () => {
    const { result } = renderHook(() => useRowAction({ toast: true }));
    await act(() => result.current.run('row-1', () => Promise.reject(new Error('Rechazado'))));
    expect(showToast).toHaveBeenCalledWith({ type: 'fail', message: 'Rechazado' });
    expect(result.current.error).toBeUndefined();
  });
});
