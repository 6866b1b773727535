import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { donateMessages } from './messagesPlugin';

const lang = resolve(import.meta.dirname, '../../lang');

function catalogue(locale: string, precompile: boolean): Record<string, unknown> {
  const plugin = donateMessages(lang, { precompile });
  const load = plugin.load as (this: { addWatchFile(f: string): void }, id: string) => string;
  const code = load.call({ addWatchFile() {} }, `\0virtual:donate-messages/${locale}`);
  return JSON.parse(code.replace(/^export default /, '').replace(/;$/, '')) as Record<string, unknown>;
}

// A value for every argument a message takes: numbers where it counts or picks plurals, text otherwise.
function sampleValues(ast: MessageFormatElement[], out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const el of ast) {
    if (el.type === TYPE.argument) out[el.value] = `«${el.value}»`;
    if (el.type === TYPE.number || el.type === TYPE.plural) out[el.value] = 12;
    if (el.type === TYPE.date || el.type === TYPE.time) out[el.value] = new Date(Date.UTC(2026, 4, 1));
    if (el.type === TYPE.select) out[el.value] = 'other';
    if (el.type === TYPE.tag) {
      out[el.value] = (chunks: unknown[]) => `<${el.value}>${chunks.join('')}</${el.value}>`;
      sampleValues(el.children, out);
    }
    if (el.type === TYPE.plural || el.type === TYPE.select) for (const o of Object.values(el.options)) sampleValues(o.value, out);
  }
  return out;
}

describe('donate messages, precompiled for the public form', () => {
  it.each(['es', 'es-AR', 'en', 'pt'])('%s: the same donate.* keys, each formatting as its text does', (locale) => {
    const text = catalogue(locale, false) as Record<string, string>;
    const compiled = catalogue(locale, true);
    expect(Object.keys(compiled)).toEqual(Object.keys(text));
    expect(Object.keys(text).every((k) => k.startsWith('donate.'))).toBe(true);
    for (const [key, message] of Object.entries(text)) {
      const ast = compiled[key] as MessageFormatElement[];
      const values = sampleValues(ast);
      const parts = (m: string | MessageFormatElement[]) => new IntlMessageFormat(m, locale).formatToParts(values as never);
      expect(parts(ast), key).toEqual(parts(message));
    }
  });
});
