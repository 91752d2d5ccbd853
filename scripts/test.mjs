// `npm test`: typecheck, unit tests, API tests (SQLite, plus PostgreSQL when TEST_DATABASE_URL is set),
// component tests, the size budget and end-to-end tests in Chromium. Prints which suites ran and a total.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reports = mkdtempSync(path.join(tmpdir(), 'lumi-test-'));
const postgres = Boolean(process.env.TEST_DATABASE_URL);
const results = [];

function run(name, command, args, options = {}) {
  process.stdout.write(`\n=== ${name}\n`);
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? root,
    stdio: 'inherit',
    env: { ...process.env, ...options.env },
  });
  const entry = { name, ok: result.status === 0, seconds: Math.round((Date.now() - started) / 1000) };
  if (options.report) Object.assign(entry, options.report());
  results.push(entry);
  return entry.ok;
}

function vitestCounts(file) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    return {
      passed: report.numPassedTests,
      failed: report.numFailedTests,
      skipped: report.numPendingTests + report.numTodoTests,
    };
  } catch {
    return {};
  }
}

function playwrightCounts(file) {
  try {
    const { stats } = JSON.parse(readFileSync(file, 'utf8'));
    return { passed: stats.expected, failed: stats.unexpected + stats.flaky, skipped: stats.skipped };
  } catch {
    return {};
  }
}

function vitest(name, workspace, env = {}) {
  const file = path.join(reports, `${name.replace(/\W+/g, '-')}.json`);
  return run(
    name,
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${file}`],
    {
      cwd: path.join(root, workspace),
      env,
      report: () => vitestCounts(file),
    },
  );
}

const ok =
  run('typecheck', 'npm', ['run', 'typecheck']) &&
  [
    vitest('telegram markup unit tests', 'packages/telegram-markup'),
    vitest('contract unit tests', 'packages/contract'),
    vitest(
      postgres ? 'server unit + API tests (SQLite and PostgreSQL)' : 'server unit + API tests (SQLite)',
      'apps/server',
    ),
    vitest('web component tests', 'apps/web'),
    vitest(postgres ? 'bot SDK tests (SQLite and PostgreSQL)' : 'bot SDK tests (SQLite)', 'packages/bot-sdk'),
  ].every(Boolean) &&
  run('build', 'npm', ['run', 'build']) &&
  [
    run('size budget', 'node', ['scripts/size.mjs']),
    // The example bot against the built server, end to end (docs/bot-developers/connect-your-bot.md).
    run('example grammY bot', 'npm', ['run', 'example'], { env: { EXAMPLE_ONCE: '1', PORT: '3471' } }),
    run('end-to-end tests (Chromium)', 'npx', ['playwright', 'test'], {
      cwd: path.join(root, 'apps/web'),
      env: { PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, 'e2e.json') },
      report: () => playwrightCounts(path.join(reports, 'e2e.json')),
    }),
  ].every(Boolean);

rmSync(reports, { recursive: true, force: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
process.stdout.write('\n=== summary\n');
for (const r of results) {
  const counts =
    r.passed === undefined
      ? ''
      : ` (${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''})`;
  process.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.name}${counts} ${r.seconds}s\n`);
  for (const key of Object.keys(totals)) totals[key] += r[key] ?? 0;
}
if (!postgres)
  process.stdout.write('skip  API tests on PostgreSQL: set TEST_DATABASE_URL=postgres://… to run them\n');
process.stdout.write(
  `\ntests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}\n`,
);
process.exit(ok ? 0 : 1);
