import { describe, expect, it } from 'vitest';
import { formatActivation } from './format';

describe('formatActivation', () => {
  it('writes month DD, YYYY - HH:mm in the organisation timezone and the reader language', () => {
    // 02:05 UTC is still the 1st, 23:05, in Buenos Aires (UTC-3).
    expect(formatActivation('2026-03-02T02:05:00Z', 'es', 'America/Argentina/Buenos_Aires')).toBe('marzo 01, 2026 - 23:05');
    expect(formatActivation('2026-03-02T02:05:00Z', 'en', 'America/Argentina/Buenos_Aires')).toBe('March 01, 2026 - 23:05');
    expect(formatActivation('2026-03-02T02:05:00Z', 'pt', 'America/Sao_Paulo')).toBe('março 01, 2026 - 23:05');
    expect(formatActivation('2026-03-02T14:30:00Z', 'es', 'America/Mexico_City')).toBe('marzo 02, 2026 - 08:30');
  });

  it('falls back to the browser timezone for an unknown one, and to nothing for a bad date', () => {
    expect(formatActivation('2026-03-02T02:05:00Z', 'es', 'Mars/Olympus')).toMatch(/^marzo 0[12], 2026 - \d\d:05$/);
    expect(formatActivation('not a date', 'es', 'UTC')).toBe('');
  });
});
