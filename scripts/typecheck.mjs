// `npm run typecheck`: TypeScript, strict, for every workspace. The projects are checked in two lanes at
// once, one per core of the CI machine (engineering guide: CI within 25 minutes), each lane in order; the
// output of a lane is printed when it ends, and the command fails when any project does.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const LANES = [
  ['apps/server', 'packages/telegram-markup', 'packages/contract'],
  ['apps/web', 'packages/bot-sdk', 'examples/grammy-bot'],
];

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project], { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ project, ok: code === 0, output }));
  });
}

async function lane(projects) {
  const results = [];
  for (const project of projects) results.push(await check(project));
  return results;
}

const results = (await Promise.all(LANES.map(lane))).flat();
for (const { project, ok, output } of results) {
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'}  ${project}\n${output}`);
}
process.exit(results.every((result) => result.ok) ? 0 : 1);
