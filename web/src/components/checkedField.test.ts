import type { ChangeEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { checkedField } from './checkedField';

describe('checkedField', () => {
  it('reads one yes/no field and writes it back with the rest of the value unchanged', () => {
    const onChange = vi.fn();
    const value = { acquisition: true, management: false, role: 'operator' };
    const field = checkedField(value, onChange, 'management');
    expect(field.checked).toBe(false);
    field.onChange({ currentTarget: { checked: true } } as ChangeEvent<HTMLInputElement>);
    expect(onChange).toHaveBeenCalledWith({ acquisition: true, management: true, role: 'operator' });
  });
});
