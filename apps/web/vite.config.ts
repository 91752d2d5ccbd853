import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { consoleChunks } from './vite-chunks.ts';
import { precompress } from './vite-precompress.ts';
import { prerenderFirstViews } from './vite-prerender.ts';

/** recharts and the packages only it uses. */
const CHART_MODULES =
  /[\\/]node_modules[\\/](recharts|d3-[a-z-]+|internmap|decimal\.js-light|victory-vendor|@reduxjs[\\/]toolkit|redux|redux-thunk|reselect|react-redux|immer|es-toolkit|eventemitter3|tiny-invariant)[\\/]/;

/**
 * react-router's production build: its package exports only its development build, which differs in its
 * development warnings alone, and those checks would run in every user's browser.
 */
const reactRouter = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
const REACT_ROUTER_PRODUCTION = [
  { find: /^react-router$/, replacement: path.join(reactRouter, 'dist/production/index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(reactRouter, 'dist/production/dom-export.mjs') },
];

export default defineConfig(({ command }) => ({
  base: '/admin/',
  plugins: [react(), tailwindcss(), precompress(), prerenderFirstViews()],
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      ...(command === 'build' ? REACT_ROUTER_PRODUCTION : []),
    ],
  },
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
}));
