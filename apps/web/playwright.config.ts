import { defineConfig } from '@playwright/test';
import { CLOCK_SERVER_PORT, E2E_PORT } from './e2e/support/constants';

/**
 * The specs that report telemetry or read the figures it makes (the Overview, Metrics, alerts on them): they
 * run one at a time, so no spec's events change the figures another asserts.
 */
const FIGURES = /(alerts|metrics[\w-]*)\.spec\.ts$/;

/** End-to-end tests in Debian's Chromium (browsers cannot be downloaded here) against the built server. */
export default defineConfig({
  testDir: './e2e',
  // Two workers, one per core of the CI machine: the specs share one server and database, but each makes
  // the data it asserts under unique names, except those of the `figures` project, which take turns.
  workers: 2,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    },
    trace: 'retain-on-failure',
  },
  // The accessibility sweep reports content of its own through the public API (telemetry, a budget, a
  // template…), which would change the figures other specs assert, so it runs after all of them.
  // `figures` is listed first, so its one worker starts at once beside the other's `flows`.
  projects: [
    { name: 'figures', testMatch: FIGURES, workers: 1 },
    { name: 'flows', testIgnore: [/accessibility\.spec\.ts$/, FIGURES] },
    // Its screens × sizes × themes only read what it arranged (once per worker, under names of its own).
    {
      name: 'accessibility',
      testMatch: /accessibility\.spec\.ts$/,
      dependencies: ['flows', 'figures'],
      fullyParallel: true,
    },
  ],
  webServer: [
    {
      command: 'node e2e/support/start-server.mjs',
      url: `http://127.0.0.1:${E2E_PORT}/api/ready`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // The server whose clock a spec moves forward (support/server-clock.ts), e.g. to a schedule's next
      // minute instead of waiting for it.
      command: 'node e2e/support/start-server.mjs',
      env: { E2E_PORT: String(CLOCK_SERVER_PORT), E2E_MOVABLE_CLOCK: '1' },
      url: `http://127.0.0.1:${CLOCK_SERVER_PORT}/api/ready`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
