import { describe, expect, it } from 'vitest';
import { parseRoute } from './route';
import { fillShortCodes } from './Thanks';

describe('parseRoute', () => {
  it('reads the slug and page from the path', () => {
    expect(parseRoute('/d/dona-demo')).toEqual({ page: 'form', slug: 'dona-demo' });
    expect(parseRoute('/d/dona-demo/')).toEqual({ page: 'form', slug: 'dona-demo' });
    expect(parseRoute('/d/dona-demo/thanks')).toEqual({ page: 'thanks', slug: 'dona-demo' });
    expect(parseRoute('/d/x/convert/abc')).toEqual({ page: 'convert', slug: 'x', donation: 'abc' });
    expect(parseRoute('/manage')).toEqual({ page: 'none' });
  });
});

describe('fillShortCodes', () => {
  it('fills the codes in every language', () => {
    expect(fillShortCodes('¡Gracias {nombre}! {monto} para {campaña}', 'Ana', '$ 1.500,00', 'Agua')).toBe('¡Gracias Ana! $ 1.500,00 para Agua');
    expect(fillShortCodes('{name} {amount} {campaign} {other}', 'A', 'B', 'C')).toBe('A B C {other}');
  });
});
