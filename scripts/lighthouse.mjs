// `npm run lighthouse`: Lighthouse (desktop preset, simulated throttling) on a full load of the sign-in page
// and of every signed-in screen, with the demo's data. A benchmark that prints figures, not a test: it fails
// only when it cannot measure. It builds nothing: it runs `npm run demo` (which starts the built server) on a
// scratch data directory, signs in with puppeteer and runs one Lighthouse user flow, one navigation a screen.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFlow } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer-core';
import { root, serverEntry } from './lib/build-stale.mjs';
import { freePort } from '@lumi/test-support/server-process';

const TARGET_SCORE = 90;
const TARGET_LCP_MS = 1500;
const ALL_SCREENS = ['overview', 'metrics', 'config', 'messages', 'users', 'admin', 'profile'];

const env = process.env;
const chromePath = env.CHROME_PATH || env.CHROMIUM_PATH || '/usr/bin/chromium';
const historyHours = env.DEMO_HISTORY_HOURS || '168';
// LIGHTHOUSE_SCREENS=overview,metrics measures only those (the sign-in page is always measured).
const SCREENS = env.LIGHTHOUSE_SCREENS
  ? ALL_SCREENS.filter((screen) => env.LIGHTHOUSE_SCREENS.split(',').includes(screen))
  : ALL_SCREENS;
// LIGHTHOUSE_REPORT=flow.html keeps Lighthouse's own report of every step (and flow.json beside it).
const reportFile = env.LIGHTHOUSE_REPORT ? path.resolve(env.LIGHTHOUSE_REPORT) : null;
const say = (text = '') => process.stdout.write(`${text}\n`);

for (const built of [path.join(root, 'apps/web/dist/index.html'), serverEntry]) {
  if (!existsSync(built)) {
    process.stderr.write(`${path.relative(root, built)} is missing: run \`npm run build\` first.\n`);
    process.exit(1);
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'lumi-lighthouse-'));
const port = Number(env.PORT || (await freePort()));
const password = randomBytes(18).toString('base64url');
const base = `http://127.0.0.1:${port}/admin`;
let demo = null;
let browser = null;

async function cleanUp() {
  await browser?.close().catch(() => {});
  if (demo && demo.exitCode === null) {
    const exited = new Promise((resolve) => demo.once('exit', resolve));
    demo.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => void cleanUp().then(() => process.exit(130)));
}

/** Runs the demo (server and simulated bot, no build) and resolves once its back-fill is done. */
function startDemo() {
  return new Promise((resolve, reject) => {
    demo = spawn(process.execPath, [path.join(root, 'scripts/demo.mjs')], {
      env: {
        ...env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LUMI_ADMIN_PASSWORD: password,
        DEMO_HISTORY_HOURS: historyHours,
        DEMO_SKIP_BUILD: '1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The demo's progress and live lines would bury the table; they are shown only when it fails.
    let output = '';
    const listen = (chunk) => {
      output += chunk;
      if (output.includes('demo is running')) resolve();
    };
    demo.stdout.on('data', listen);
    demo.stderr.on('data', listen);
    demo.once('exit', (code) => reject(new Error(`The demo stopped (exit code ${code}):\n${output}`)));
  });
}

const ms = (value) => `${Math.round(value).toLocaleString('en')} ms`;
const seconds = (value) => `${(value / 1000).toFixed(2)} s`;

function row(name, lhr) {
  // A load that failed (the server answering 500, nothing painted) has no figures, only Lighthouse's reason.
  if (lhr.runtimeError) return [name, '-', '-', '-', '-', `failed: ${lhr.runtimeError.code}`];
  const score = Math.round((lhr.categories.performance.score ?? 0) * 100);
  const lcp = lhr.audits['largest-contentful-paint'].numericValue;
  const tbt = lhr.audits['total-blocking-time'].numericValue;
  const cls = lhr.audits['cumulative-layout-shift'].numericValue;
  const met = score >= TARGET_SCORE && lcp <= TARGET_LCP_MS;
  return [name, String(score), seconds(lcp), ms(tbt), cls.toFixed(3), met ? 'met' : 'missed'];
}

function printTable(rows) {
  const head = ['Screen', 'Performance', 'LCP', 'TBT', 'CLS', 'Target'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  say(line(head));
  for (const r of rows) say(line(r));
  say();
  say(
    `Target on every signed-in screen: performance >= ${TARGET_SCORE} and LCP <= ${seconds(TARGET_LCP_MS)}.`,
  );
}

async function main() {
  say(`Starting the demo with ${historyHours} hours of history on ${dataDir} (port ${port})…`);
  await startDemo();
  browser = await puppeteer.launch({
    executablePath: chromePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const page = await browser.newPage();
  const flow = await startFlow(page, { config: desktopConfig, name: 'Lumi Admin console' });
  const names = [];

  say('Lighthouse: sign-in page…');
  await flow.navigate(`${base}/login`, { name: 'sign-in' });
  names.push('sign-in');

  await page.locator('input[autocomplete="username"]').fill('admin');
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await Promise.all([
    page.waitForFunction("location.pathname.endsWith('/overview')"),
    page.locator('button[type="submit"]').click(),
  ]);

  for (const screen of SCREENS) {
    say(`Lighthouse: ${screen}…`);
    // User flows keep storage between steps, so each load restores the session as a returning user's does.
    await flow.navigate(`${base}/${screen}`, { name: screen });
    names.push(screen);
  }

  const result = await flow.createFlowResult();
  if (reportFile) {
    writeFileSync(reportFile, await flow.generateReport());
    writeFileSync(reportFile.replace(/(\.html)?$/, '.json'), JSON.stringify(result));
    say(`Lighthouse's report: ${reportFile}`);
  }
  say();
  printTable(result.steps.map((step, i) => row(names[i], step.lhr)));
}

try {
  await main();
} catch (error) {
  process.stderr.write(`\n${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
