// `npm test`: typecheck, unit tests, API tests (SQLite, plus PostgreSQL when TEST_DATABASE_URL is set),
// component tests, the size budget and end-to-end tests in Chromium. Prints which suites ran and a total.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

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

/** A failure's first lines, without colours: CI keeps only the end of the output, so the summary repeats them. */
function firstLines(message = '') {
  const lines = stripVTControlCharacters(message)
    .split('\n')
    .filter((line) => line.trim());
  return lines.slice(0, 16).map((line) => `        ${line.slice(0, 300)}`);
}

function vitestCounts(file) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const failures = report.testResults.flatMap((suite) => {
      const failed = suite.assertionResults.filter((a) => a.status === 'failed');
      if (failed.length === 0 && suite.status === 'failed')
        return [{ title: path.relative(root, suite.name), lines: firstLines(suite.message) }];
      return failed.map((a) => ({
        title: `${path.relative(root, suite.name)} › ${a.fullName}`,
        lines: firstLines(a.failureMessages[0]),
      }));
    });
    return {
      passed: report.numPassedTests,
      failed: report.numFailedTests,
      skipped: report.numPendingTests + report.numTodoTests,
      failures,
    };
  } catch {
    return {};
  }
}

function playwrightFailures(suite, titles = []) {
  const here = suite.title && !suite.file?.endsWith(suite.title) ? [...titles, suite.title] : titles;
  return [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((t) => t.status === 'unexpected' || t.status === 'flaky')
        .map((t) => ({
          title: `${t.status === 'flaky' ? '(flaky, passed on a retry) ' : ''}[${t.projectName}] ${suite.file ?? ''} › ${[...here, spec.title].join(' › ')}`,
          lines: firstLines(t.results.find((r) => r.errors?.length)?.errors[0].message),
        })),
    ),
    ...(suite.suites ?? []).flatMap((child) => playwrightFailures({ file: suite.file, ...child }, here)),
  ];
}

function playwrightCounts(file) {
  try {
    const { stats, suites, errors = [] } = JSON.parse(readFileSync(file, 'utf8'));
    return {
      passed: stats.expected,
      failed: stats.unexpected + stats.flaky,
      skipped: stats.skipped,
      failures: [
        // A spec that did not load, or a web server that did not start: no test carries these.
        ...errors.map((error) => ({ title: 'Playwright', lines: firstLines(error.message) })),
        ...suites.flatMap((suite) => playwrightFailures(suite)),
      ],
    };
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
const failures = results.flatMap((r) => r.failures ?? []);
if (failures.length) {
  process.stdout.write('\n=== what failed (the first lines of each failed test; the full output is above)\n');
  for (const { title, lines } of failures.slice(0, 20))
    process.stdout.write(`FAIL  ${title}\n${lines.join('\n')}\n`);
  if (failures.length > 20) process.stdout.write(`… and ${failures.length - 20} more\n`);
}
if (!postgres)
  process.stdout.write('skip  API tests on PostgreSQL: set TEST_DATABASE_URL=postgres://… to run them\n');
process.stdout.write(
  `\ntests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}\n`,
);
process.exit(ok ? 0 : 1);
