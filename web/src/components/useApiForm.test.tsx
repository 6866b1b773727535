import { act, renderHook } from '@testing-library/react';
import type { FormEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { useApiForm } from './useApiForm';

const event = () => ({ preventDefault: vi.fn() }) as unknown as FormEvent;

describe('useApiForm', () => {
  it('sends the form once, pending meanwhile, without reloading the page', async () => {
    let finish!: () => void;
    const send = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { result } = renderHook(() => useApiForm(send));
    const e = event();
    let sent!: Promise<void>;
    act(() => {
      sent = result.current.onSubmit(e);
    });
    expect(e.preventDefault).toHaveBeenCalled();
    expect(result.current.pending).toBe(true);
    await act(async () => {
      finish();
      await sent;
    });
    expect(send).toHaveBeenCalledOnce();
    expect(result.current.pending).toBe(false);
    expect(result.current.formError).toBeUndefined();
  });

  it("shows the server's field messages under their inputs, not above the form", async () => {
    const { result } = renderHook(() => useApiForm(() => Promise.reject(new ApiError(422, 'webhook.invalid', 'Revisa los datos', undefined, { url: 'Dirección inválida' }))));
    await act(() => result.current.onSubmit(event()));
    expect(result.current.fieldError('url')).toBe('Dirección inválida');
    expect(result.current.fieldError('events')).toBeUndefined();
    expect(result.current.formError).toBeUndefined();
  });

  it('shows any other failure above the form', async () => {
    const { result } = renderHook(() => useApiForm(() => Promise.reject(new ApiError(502, 'crm.unreachable', 'El CRM no responde'))));
    await act(() => result.current.onSubmit(event()));
    expect(result.current.formError).toBe('El CRM no responde');
    expect(result.current.pending).toBe(false);
  });
});
