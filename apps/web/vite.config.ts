import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { consoleChunks } from './vite-chunks.ts';
import { precompress } from './vite-precompress.ts';

/** recharts and the packages only it uses. */
const CHART_MODULES =
  /[\\/]node_modules[\\/](recharts|d3-[a-z-]+|internmap|decimal\.js-light|victory-vendor|@reduxjs[\\/]toolkit|redux|redux-thunk|reselect|react-redux|immer|es-toolkit|eventemitter3|tiny-invariant)[\\/]/;

export default defineConfig({
  base: '/admin/',
  plugins: [react(), tailwindcss(), precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  // Monaco is one large chunk loaded only by the editors; the sign-in budget is enforced by scripts/size.mjs.
  build: {
    target: 'es2022',
    sourcemap: true,
    manifest: true,
    chunkSizeWarningLimit: 3000,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // recharts and its own dependencies in one chunk that only the charts load: left to itself,
            // Rolldown puts them in the chunk of the small modules the chart screens share (their colours),
            // so the Metrics screen's first view waited for all of recharts (docs/benchmarks.md).
            { name: 'charts', test: CHART_MODULES, includeDependenciesRecursively: false },
            { name: consoleChunks(), includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
});
