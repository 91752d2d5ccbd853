import { defineConfig } from 'vitest/config';
import LongestFirst from './test/longest-first.js';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Migrates the template databases that every test's database is copied from, once per run.
    globalSetup: ['test/global-setup.ts'],
    // Generous limits: the API tests hash passwords and, with TEST_DATABASE_URL, create databases, and CI
    // machines are small and busy.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two files at a time: one per core of the CI machine. Every test has a database of its own and every
    // fake server listens on a port the system chose, so files do not meet.
    maxWorkers: 2,
    // A worker's files share its loaded modules instead of each importing the server again (a fifth of the
    // suite's time); each test still builds its own app on its own database.
    isolate: false,
    // The longest files first, so the two workers finish together (test/longest-first.ts).
    sequence: { sequencer: LongestFirst },
  },
});
