import { describe, expect, it } from 'vitest';
import { accessibleAccent, contrast } from './color';

describe('accessibleAccent', () => {
  it('keeps dark colours and darkens light ones to AA on white', () => {
    expect(accessibleAccent('#0f766e')).toBe('#0f766e');
    for (const c of ['#ffeb3b', '#00bcd4', '#ff9800', '#fff', 'nonsense']) {
      expect(contrast(accessibleAccent(c), '#ffffff')).toBeGreaterThanOrEqual(4.5);
    }
  });
});
