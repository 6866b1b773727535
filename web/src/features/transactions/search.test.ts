import { describe, expect, it } from 'vitest';
import { rowsQueryString, shiftPeriod, transactionsSearch } from './search';

describe('transactions URL state', () => {
  it('validates', () => {
    expect(transactionsSearch.parse({ period: '2026-13', status: 'approved', currency: 'ars', page: '2' })).toEqual({ period: undefined, status: 'approved', currency: undefined, page: 2 });
  });
  it('moves between months across years', () => {
    expect(shiftPeriod('2026-01', -1)).toBe('2025-12');
    expect(shiftPeriod('2026-12', 1)).toBe('2027-01');
  });
  it('builds the rows query', () => {
    expect(rowsQueryString({ status: 'rejected', currency: 'ARS' }, '2026-11')).toBe('period=2026-11&page=1&per_page=25&status=rejected&currency=ARS');
  });
});
