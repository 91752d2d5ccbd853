import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createServer, type Plugin } from 'vite';
import type * as FirstViews from './src/prerender.tsx';

/** Where the server finds the first views (apps/server/src/plugins/static-console.ts). */
const FIRST_VIEWS_FILE = path.join('.vite', 'first-views.json');

/**
 * Renders the first view of each signed-in address src/prerender.tsx lists (FIRST_VIEW_ADDRESSES) once the
 * build is written, into `.vite/first-views.json` ({ "/overview": "<markup>", ... }): the server puts a
 * screen's markup in the page it sends, so a phone paints the screen's frame before the console's script
 * arrives (docs/benchmarks.md, "The first signed-in load").
 */
export function prerenderFirstViews(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'lumi-prerender-first-views',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      // The same configuration as a development server (this plugin applies to builds only).
      const server = await createServer({
        root,
        logLevel: 'error',
        server: { middlewareMode: true, hmr: false, ws: false },
        appType: 'custom',
      });
      try {
        const { FIRST_VIEW_ADDRESSES, renderFirstView } = (await server.ssrLoadModule(
          '/src/prerender.tsx',
        )) as typeof FirstViews;
        const views: Record<string, string> = {};
        for (const address of FIRST_VIEW_ADDRESSES) views[address] = await renderFirstView(address);
        await mkdir(path.join(outDir, '.vite'), { recursive: true });
        await writeFile(path.join(outDir, FIRST_VIEWS_FILE), JSON.stringify(views));
      } finally {
        await server.close();
      }
    },
  };
}
