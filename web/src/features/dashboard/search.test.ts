import { describe, expect, it } from 'vitest';
import { activePreset, dashboardQueryString, dashboardSearch, formatConversion, presetRange } from './search';

const today = new Date(2026, 10, 22);

describe('dashboard URL state', () => {
  it('validates params', () => {
    expect(dashboardSearch.parse({ from: '2026-11-01', to: 'x', campaign: '0a1b2c3d-0000-4000-8000-00000000a001', frequency: 'yearly' })).toEqual({
      from: '2026-11-01', to: undefined, campaign: '0a1b2c3d-0000-4000-8000-00000000a001', frequency: undefined,
    });
  });
  it('computes presets and recognises them', () => {
    expect(presetRange(7, today)).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(presetRange(30, today)).toEqual({ from: '2026-10-24', to: '2026-11-22' });
    expect(activePreset({}, today)).toBe('30');
    expect(activePreset({ from: '2026-11-16', to: '2026-11-22' }, today)).toBe('7');
    expect(activePreset({ from: '2026-01-01', to: '2026-02-01' }, today)).toBe('custom');
  });
  it('builds the query and formats conversion', () => {
    expect(dashboardQueryString({ frequency: 'monthly', from: '2026-11-01' })).toBe('from=2026-11-01&frequency=monthly');
    expect(formatConversion(0.25, 'es')).toMatch(/25\s?%/);
    expect(formatConversion(null, 'es')).toBe('—');
  });
});
