import { defineConfig } from '@playwright/test';
import { E2E_PORT } from './e2e/support/constants';

/** End-to-end tests in Debian's Chromium (browsers cannot be downloaded here) against the built server. */
export default defineConfig({
  testDir: './e2e',
  // One worker: the machine has two cores and the tests share one server and database.
  workers: 1,
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
  projects: [
    { name: 'flows', testIgnore: /accessibility\.spec\.ts$/ },
    { name: 'accessibility', testMatch: /accessibility\.spec\.ts$/, dependencies: ['flows'] },
  ],
  webServer: {
    command: 'node e2e/support/start-server.mjs',
    url: `http://127.0.0.1:${E2E_PORT}/api/ready`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
