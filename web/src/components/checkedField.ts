import type { ChangeEvent } from 'react';

type BooleanKey<T> = { [K in keyof T]: T[K] extends boolean ? K : never }[keyof T];

/** A checkbox's or switch's `checked` and `onChange`, bound to one yes/no field of a form's value. */
export function checkedField<T, K extends BooleanKey<T>>(value: T, onChange: (next: T) => void, key: K) {
  return {
    checked: value[key] as boolean,
    onChange: (e: ChangeEvent<HTMLInputElement>) => onChange({ ...value, [key]: e.currentTarget.checked }),
  };
}
