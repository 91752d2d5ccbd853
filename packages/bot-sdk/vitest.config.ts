import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // The integration test starts a real server (and, with TEST_DATABASE_URL, creates a database).
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // One file per core of the CI machine.
    maxWorkers: 2,
  },
});
