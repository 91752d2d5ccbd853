// Builds whatever is missing or older than its sources: shared by `npm start`, `npm run demo` and
// `npm run bench`, so all three run the same artefacts a user gets.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const at = (...parts) => path.join(root, ...parts);

/** The server bundle that `npm start` runs. */
export const serverEntry = at('apps/server/dist/server.js');

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce(
    (max, name) => Math.max(max, newestMtime(path.join(target, name))),
    stat.mtimeMs,
  );
}

const targets = [
  {
    name: '@lumi/web',
    output: at('apps/web/dist/index.html'),
    sources: [
      at('apps/web/src'),
      at('apps/web/index.html'),
      at('apps/web/vite.config.ts'),
      at('apps/web/public'),
    ],
  },
  { name: '@lumi/server', output: serverEntry, sources: [at('apps/server/src')] },
];

/**
 * Builds the stale workspaces (all of them, or only those named) and returns; exits the process with the
 * build's status when a build fails, after saying which one.
 */
export function buildStale(only = targets.map((t) => t.name)) {
  const contract = newestMtime(at('packages/contract/src'));
  for (const target of targets.filter((t) => only.includes(t.name))) {
    const built = existsSync(target.output) ? statSync(target.output).mtimeMs : 0;
    const newest = Math.max(contract, ...target.sources.map(newestMtime));
    if (built >= newest) continue;
    process.stdout.write(`Building ${target.name}…\n`);
    const result = spawnSync('npm', ['run', 'build', '-w', target.name], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) {
      process.stderr.write(`Building ${target.name} failed; see the output above.\n`);
      process.exit(result.status ?? 1);
    }
  }
}
