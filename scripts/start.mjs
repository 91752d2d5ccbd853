// `npm start`: builds whatever is missing or older than its sources, then runs the server in this process
// (so SIGINT and SIGTERM reach it directly). The server migrates the database and creates the first admin.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => path.join(root, ...parts);

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce(
    (max, name) => Math.max(max, newestMtime(path.join(target, name))),
    stat.mtimeMs,
  );
}

const contract = newestMtime(at('packages/contract/src'));
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
  { name: '@lumi/server', output: at('apps/server/dist/server.js'), sources: [at('apps/server/src')] },
];

for (const target of targets) {
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

await import(pathToFileURL(at('apps/server/dist/server.js')).href);
