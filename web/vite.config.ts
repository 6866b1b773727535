/// <reference types="vitest/config" />
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { donateMessages } from './src/donate/messagesPlugin';
import apiPrefixes from './api-prefixes.json';

const backend = 'http://localhost:8080';
// The API's prefixes are one list with the server's (api-prefixes.json, embedded by web/web.go).
const proxied = [...apiPrefixes.map((p) => p.replace(/\/$/, '')), '/healthz', '/readyz'];

// emptyOutDir wipes dist/, but Go's `//go:embed dist` needs the directory (and a
// tracked file in it) to exist in a clean clone, so the marker is put back after each build.
function keepDistMarker(): Plugin {
  return {
    name: 'aporta-keep-dist-marker',
    apply: 'build',
    closeBundle() {
      writeFileSync(resolve(import.meta.dirname, 'dist/.keep'), '');
    },
  };
}

/**
 * dist/routes.json: the app's page paths ("/manage/campaigns/$uuid"), read from the router's generated tree, so
 * the server answers 404 (still with the app, which shows its not-found page) for a path no route matches.
 */
function routeManifest(): Plugin {
  return {
    name: 'aporta-route-manifest',
    apply: 'build',
    generateBundle() {
      const tree = readFileSync(resolve(import.meta.dirname, 'src/routeTree.gen.ts'), 'utf8');
      const block = /export interface FileRoutesByFullPath \{([^}]*)\}/.exec(tree)?.[1];
      if (!block) throw new Error('routeTree.gen.ts has no FileRoutesByFullPath: the route manifest cannot be written');
      const paths = [...block.matchAll(/^\s*'([^']+)':/gm)].map((m) => m[1]);
      this.emitFile({ type: 'asset', fileName: 'routes.json', source: JSON.stringify(paths) });
    },
  };
}

// The public donation form is its own light page (donate.html), served by Go for /d/{slug}, built by a second
// pass (`vite build --mode donate`, after the app's) that adds it to dist/: it runs on Preact through preact/compat
// (about 55 KB gzipped less than React on a phone's first load, issue 19); an alias applies to a whole build, so the
// form cannot share the app's pass. Its source still imports 'react': the unit tests run it on React.
// Its messages come precompiled (ICU syntax trees), so the ICU parser is left out of it (no-parser).
const donateBuild: UserConfig = {
  plugins: [react(), donateMessages(resolve(import.meta.dirname, 'lang'), { precompile: true })],
  resolve: {
    alias: [
      { find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' },
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react(-dom)?$/, replacement: 'preact/compat' },
      { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/jsx-runtime' },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    rolldownOptions: { input: { donate: resolve(import.meta.dirname, 'donate.html') } },
  },
};

export default defineConfig(({ mode }) => (mode === 'donate' ? donateBuild : {
  base: '/',
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
    keepDistMarker(),
    routeManifest(),
    donateMessages(resolve(import.meta.dirname, 'lang')),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      input: { main: resolve(import.meta.dirname, 'index.html') },
      output: {
        // Libraries change far less often than the app: separate chunks stay cached across deploys.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'mantine', test: /node_modules[\\/]@mantine[\\/]/ },
            { name: 'tanstack', test: /node_modules[\\/]@tanstack[\\/]/ },
            { name: 'intl', test: /node_modules[\\/](react-intl|@formatjs|intl-messageformat)[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, backend])),
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
}));
