// Bundles the server (and the workspace packages it imports) into dist/server.js, and its render worker into
// dist/render-worker.js, the ingest worker into dist/ingest-worker.js and the WAL checkpoint thread into
// dist/wal-checkpoint-worker.js; npm packages stay external.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@lumi/'));

await build({
  // The render worker runs in a thread of its own (modules/messaging/rendering/render-pool.ts).
  entryPoints: {
    server: 'src/server.ts',
    'render-worker': 'src/modules/messaging/rendering/render-worker.ts',
    // Ingestion stores from a thread of its own (modules/ingestion/ingest-writer.ts).
    'ingest-worker': 'src/modules/ingestion/ingest-worker.ts',
    // The SQLite WAL is checkpointed from a thread of its own (db/wal-checkpointer.ts).
    'wal-checkpoint-worker': 'src/db/wal-checkpoint-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
