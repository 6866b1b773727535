import { describe, expect, it } from 'vitest';
import { checkLogo, MAX_LOGO_BYTES } from './rules';

describe('checkLogo', () => {
  it('takes a JPG, PNG or GIF under 5 MB and names what is wrong otherwise', () => {
    expect(checkLogo({ name: 'logo.PNG', size: MAX_LOGO_BYTES - 1 })).toBeUndefined();
    expect(checkLogo({ name: 'logo.gif', size: MAX_LOGO_BYTES })).toBe('organization.invalid_logo_size');
    expect(checkLogo({ name: 'logo.png', size: 0 })).toBe('organization.invalid_logo_size');
    expect(checkLogo({ name: 'logo.pdf', size: 10 })).toBe('organization.invalid_logo_type');
    expect(checkLogo({ name: 'logo', size: 10 })).toBe('organization.invalid_logo_type');
  });
});
