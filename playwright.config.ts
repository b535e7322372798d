import path from 'node:path'
import { defineConfig } from '@playwright/test'

/**
 * Console e2e tests: the real service (headless, `opstation serve`, on a fresh data folder: one per test, or one per
 * worker for the tests that share it, test/e2e/fixtures.ts) driven in Debian's Chromium. `npx playwright test` builds
 * the console first when it is missing or stale.
 * Screenshots of every screen land in test-results/screenshots/ (artifacts, not committed).
 */
/**
 * Debian's Chromium (/usr/bin/chromium, or $OPSTATION_CHROMIUM), started through test/e2e/chromium.sh: it leaves out
 * the browser-UI renderers no test uses (the omnibox popup's, one per browser context) and keeps the features
 * Playwright disables (Chromium reads only the last --disable-features switch, so the script passes both as one).
 */
const CHROMIUM_LAUNCHER = path.join(import.meta.dirname, 'test', 'e2e', 'chromium.sh')

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/e2e',
  globalSetup: './test/e2e/globalSetup.ts',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  // Each test runs its own service and anvil, or shares the worker's; two at a time suit a 2-core machine.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1360, height: 900 },
    // A trace records a screencast and DOM snapshots of every action: about a sixth of the run's CPU when every test
    // records one. In CI, where a failed test is retried once, only the retry records (the failure's trace is kept);
    // locally, without retries, every test records and a failure keeps its trace.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    launchOptions: {
      executablePath: CHROMIUM_LAUNCHER,
      args: [
        '--headless',
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
})
