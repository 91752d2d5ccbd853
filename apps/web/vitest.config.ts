import { mergeConfig } from 'vite';
import { defineConfig } from 'vitest/config';
import viteConfig from './vite.config';

export default defineConfig((env) =>
  mergeConfig(viteConfig(env), {
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['src/test/setup.ts'],
      testTimeout: 20000,
      // One file per core: Vitest's default leaves one of the CI machine's two cores idle.
      maxWorkers: 2,
      // A worker's files share one page (jsdom) and its loaded modules instead of building both again for
      // each file (two thirds of the suite's time); each test still renders into a cleaned page with a
      // fake API of its own (src/test/setup.ts).
      isolate: false,
    },
  }),
);
