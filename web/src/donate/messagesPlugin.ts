import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from '@formatjs/icu-messageformat-parser';
import type { Plugin } from 'vite';

const PREFIX = 'virtual:donate-messages/';

/**
 * `import messages from 'virtual:donate-messages/es'`: only the `donate.*` keys of lang/es.json,
 * so the public form's bundle does not carry the manage area's catalogue. With precompile, each message is its parsed
 * ICU syntax tree: the page then ships without the message parser and parses nothing on a phone's main thread.
 */
export function donateMessages(langDir: string, { precompile = false } = {}): Plugin {
  return {
    name: 'aporta-donate-messages',
    resolveId(id) {
      return id.startsWith(PREFIX) ? '\0' + id : undefined;
    },
    load(id) {
      if (!id.startsWith('\0' + PREFIX)) return undefined;
      const locale = id.slice(PREFIX.length + 1);
      const file = resolve(langDir, `${locale}.json`);
      this.addWatchFile(file);
      const all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      const picked = Object.fromEntries(
        Object.entries(all)
          .filter(([key]) => key.startsWith('donate.'))
          .map(([key, message]) => [key, precompile ? parse(message) : message]),
      );
      return `export default ${JSON.stringify(picked)};`;
    },
  };
}
