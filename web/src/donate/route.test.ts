import { describe, expect, it } from 'vitest';
import { parseRoute } from './route';

describe('parseRoute', () => {
  it('reads the slug and page from the path', () => {
    expect(parseRoute('/d/dona-demo')).toEqual({ page: 'form', slug: 'dona-demo' });
    expect(parseRoute('/d/dona-demo/')).toEqual({ page: 'form', slug: 'dona-demo' });
    expect(parseRoute('/d/dona-demo/thanks')).toEqual({ page: 'thanks', slug: 'dona-demo' });
    expect(parseRoute('/d/x/convert/abc')).toEqual({ page: 'convert', slug: 'x', donation: 'abc' });
    expect(parseRoute('/manage')).toEqual({ page: 'none' });
  });
});
