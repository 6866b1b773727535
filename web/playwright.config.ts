import { defineConfig } from '@playwright/test';

// The stack (Go server with the embedded build) is started by the Makefile, so there is no webServer here.
export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results/artifacts',
  workers: 1,
  reporter: 'list',
  use: {
    baseURL: process.env.APORTA_URL ?? 'http://localhost:8080',
    headless: true,
    // A Latin-American browser; the app resolves es-AR to its Spanish catalogue.
    locale: 'es-AR',
    trace: 'retain-on-failure',
    launchOptions: {
      // Debian's Chromium: Playwright's own browser download is not reachable from these machines.
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
