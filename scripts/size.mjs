// `npm run size`: gzip size of what the sign-in page downloads and of each screen's chunk, from Vite's
// manifest. Fails (exit 1) when the sign-in page exceeds its budget (150 KB; docs/benchmarks.md).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 150;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'apps/web/dist');
const manifestFile = path.join(dist, '.vite/manifest.json');
if (!existsSync(manifestFile)) {
  process.stderr.write('No build found: run `npm run build` first.\n');
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const gz = new Map();
const sizeOf = (file) => {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length);
  return gz.get(file);
};

/** Files a chunk needs before it runs: itself, its CSS and its static imports, recursively. */
function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const css of chunk.css ?? []) seen.add(css);
  for (const imported of chunk.imports ?? []) closure(imported, seen);
  return seen;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const total = (files) => [...files].reduce((sum, f) => sum + sizeOf(f), 0);

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const initial = closure(entryKey);
const screens = Object.entries(manifest).filter(([, chunk]) => chunk.isDynamicEntry);
const loginKey = screens.map(([k]) => k).find((k) => k.includes('login'));
const signIn = new Set([...initial, ...(loginKey ? closure(loginKey) : [])]);

process.stdout.write(`Initial load (entry): ${kb(total(initial))} gzip\n`);
process.stdout.write(
  `Sign-in page total:   ${kb(total(signIn))} gzip (budget ${BUDGET_KB} KB)\n\nScreen chunks (beyond the initial load):\n`,
);
for (const [key] of screens.sort(([a], [b]) => a.localeCompare(b))) {
  const extra = [...closure(key)].filter((f) => !initial.has(f));
  process.stdout.write(`  ${key.padEnd(52)} ${kb(total(extra))}\n`);
}
if (total(signIn) > BUDGET_KB * 1024) {
  process.stderr.write(`\nThe sign-in page is over its ${BUDGET_KB} KB budget.\n`);
  process.exit(1);
}
