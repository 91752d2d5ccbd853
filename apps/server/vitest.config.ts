import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Generous limits: the API tests hash passwords and, with TEST_DATABASE_URL, create databases, and CI
    // machines are small and busy.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One file at a time keeps a 2-core machine responsive and PostgreSQL connection counts low.
    fileParallelism: false,
  },
});
