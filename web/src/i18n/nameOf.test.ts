import { createIntl, defineMessages } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { nameOf } from './nameOf';

const intl = createIntl({ locale: 'es', messages: { 'x.active': 'Activa' } });
const names = defineMessages({ active: { id: 'x.active', defaultMessage: 'Activo' } });

describe('nameOf', () => {
  it("says a known code in the catalogue's words", () => {
    expect(nameOf(intl, names, 'active')).toBe('Activa');
  });

  it('leaves an unknown code as it is, also one named like an object property', () => {
    expect(nameOf(intl, names, 'archived')).toBe('archived');
    expect(nameOf(intl, names, 'toString')).toBe('toString');
  });
});
