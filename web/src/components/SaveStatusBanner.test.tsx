import { act, renderHook, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { SaveStatusBanner } from './SaveStatusBanner';
import { useSaveStatus } from './useSaveStatus';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('useSaveStatus', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('goes saving → saved, hides at 5000 ms and clears at 5250 ms', async () => {
    const { result } = renderHook(() => useSaveStatus());
    const save = deferred();
    let pending!: Promise<unknown>;
    act(() => {
      pending = result.current.track(() => save.promise);
    });
    expect(result.current).toMatchObject({ status: 'saving', visible: true });

    await act(async () => {
      save.resolve();
      await pending;
    });
    expect(result.current).toMatchObject({ status: 'saved', visible: true });

    act(() => vi.advanceTimersByTime(4999));
    expect(result.current.visible).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toMatchObject({ status: 'saved', visible: false });
    act(() => vi.advanceTimersByTime(250));
    expect(result.current.status).toBe('idle');
  });

  it('reports a failed save as error and resolves to undefined', async () => {
    const { result } = renderHook(() => useSaveStatus());
    let outcome: unknown = 'unset';
    await act(async () => {
      outcome = await result.current.track(() => Promise.reject(new Error('boom')));
    });
    expect(outcome).toBeUndefined();
    expect(result.current.status).toBe('error');
    act(() => vi.advanceTimersByTime(5250));
    expect(result.current).toMatchObject({ status: 'idle', visible: false });
  });

  it('a new save restarts the cycle instead of being hidden by the previous timers', async () => {
    const { result } = renderHook(() => useSaveStatus());
    await act(async () => {
      await result.current.track(() => Promise.resolve());
    });
    act(() => vi.advanceTimersByTime(4000));
    await act(async () => {
      await result.current.track(() => Promise.resolve());
    });
    act(() => vi.advanceTimersByTime(4000));
    expect(result.current).toMatchObject({ status: 'saved', visible: true });
  });
});

describe('SaveStatusBanner', () => {
  it.each([
    ['saving', 'guardando...'],
    ['saved', 'Guardado correctamente'],
    ['error', 'Error al guardar'],
  ] as const)('shows the %s text', (status, text) => {
    renderWithProviders(<SaveStatusBanner status={status} visible />);
    expect(screen.getByRole('status')).toHaveTextContent(text);
  });

  it('shows nothing when hidden', () => {
    renderWithProviders(<SaveStatusBanner status="saved" visible={false} />);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });
});
