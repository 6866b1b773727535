import { defineConfig } from '@playwright/test';

// The stack (Go server with the embedded build) is started by the Makefile, so there is no webServer here.
export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results/artifacts',
  workers: 1,
  // One more try for a test that fails: the report lists one that then passes as flaky, by name, to be looked into;
  // a real fault fails both tries. Every spec therefore starts from the state it sets up (it may run twice on one
  // stack).
  retries: 1,
  reporter: 'list',
  // A toPass() without its own timeout would retry until the test's budget is gone.
  expect: { toPass: { timeout: 60_000 } },
  use: {
    // No single step may eat a test's whole budget: a click, a screenshot, a waitForEvent/Response/Request or a
    // navigation that hangs fails in under a minute, naming itself (Playwright's defaults are "no limit").
    // Generous, because the machine that runs make test is shared and loaded.
    actionTimeout: 45_000,
    navigationTimeout: 60_000,
    baseURL: process.env.APORTA_URL ?? 'http://localhost:8080',
    headless: true,
    // A Latin-American browser; the app resolves es-AR to its Spanish catalogue.
    locale: 'es-AR',
    // Without the panels' and popovers' transitions (the theme's respectReducedMotion): a step no longer acts on an
    // element an accordion is still sliding open (integrated.spec's discard click, pressed while the panel moved,
    // opened nothing) or a popover Mantine hid while its anchor was clipped.
    reducedMotion: 'reduce',
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
