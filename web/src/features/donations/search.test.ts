import { describe, expect, it } from 'vitest';
import { donationsQueryString, donationsSearch } from './search';

describe('donations URL state', () => {
  it('keeps valid params and drops malformed ones', () => {
    const s = donationsSearch.parse({ page: '3', sort: '-amount', status: 'paused', campaign: 'nope', frequency: 'weekly', from: '2026-01-01', to: '2026-13', q: 'ana' });
    expect(s).toEqual({ page: 3, sort: '-amount', status: 'paused', campaign: undefined, frequency: undefined, from: '2026-01-01', to: undefined, q: 'ana' });
  });
  it('rejects unknown sort keys and page 0', () => {
    expect(donationsSearch.parse({ sort: 'email', page: '0' })).toEqual({ sort: undefined, page: undefined, status: undefined, campaign: undefined, frequency: undefined, from: undefined, to: undefined, q: undefined });
  });
  it('builds the API query with defaults', () => {
    expect(donationsQueryString({})).toBe('page=1&per_page=20&sort=-created_at');
    expect(donationsQueryString({ page: 2, status: 'active', q: '  gómez ' })).toBe('page=2&per_page=20&sort=-created_at&status=active&q=g%C3%B3mez');
    expect(donationsQueryString({ frequency: 'monthly', page: 4 }, false)).toBe('sort=-created_at&frequency=monthly');
  });
});
