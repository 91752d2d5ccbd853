// `npm run lighthouse`: Lighthouse on a full load of the sign-in page, of every signed-in screen and of the
// pages an alert's link opens, with the demo's data, on its mobile preset (a mid-range phone on slow 4G, its
// default) and its desktop preset, both with simulated throttling. A benchmark that prints figures, not a
// test: it fails only when it cannot measure. It builds nothing: it runs `npm run demo` (which starts the
// built server) on a scratch data directory, signs in with puppeteer and runs one Lighthouse user flow per
// preset, one navigation a page.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFlow } from 'lighthouse';
import mobileConfig from 'lighthouse/core/config/default-config.js';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer-core';
import { percentile } from './bench/percentile.mjs';
import { root, serverEntry } from './lib/build-stale.mjs';
import { freePort } from '@lumi/test-support/server-process';

/** The targets per preset (docs/benchmarks.md, "The first signed-in load"). */
const PRESETS = {
  mobile: { config: mobileConfig, score: 90, lcpMs: 2500, tbtMs: 200, cls: 0.1 },
  desktop: { config: desktopConfig, score: 95, lcpMs: 1500, tbtMs: 200, cls: 0.1 },
};
/** Each page by its name and its path under /admin; `alert` is the page an alert's link opens. */
const ALL_SCREENS = {
  overview: 'overview',
  metrics: 'metrics',
  calls: 'metrics?tab=calls',
  config: 'config',
  messages: 'messages',
  alerts: 'alerts',
  alert: 'alerts?rule=1',
  limits: 'limits',
  users: 'users',
  admin: 'admin',
  profile: 'profile',
};

const env = process.env;
const chromePath = env.CHROME_PATH || env.CHROMIUM_PATH || '/usr/bin/chromium';
const historyHours = env.DEMO_HISTORY_HOURS || '168';
// LIGHTHOUSE_SCREENS=overview,metrics measures only those (the sign-in page is always measured).
const SCREENS = Object.entries(ALL_SCREENS).filter(
  ([name]) => !env.LIGHTHOUSE_SCREENS || env.LIGHTHOUSE_SCREENS.split(',').includes(name),
);
// LIGHTHOUSE_PRESETS=mobile measures only that preset.
const PRESET_NAMES = Object.keys(PRESETS).filter(
  (name) => !env.LIGHTHOUSE_PRESETS || env.LIGHTHOUSE_PRESETS.split(',').includes(name),
);
// LIGHTHOUSE_RUNS=3 runs each preset's flow that many times and prints each figure's median by nearest rank:
// on this machine one run of a page can differ from the next by a few hundred ms of TBT.
const RUNS = Math.max(1, Number.parseInt(env.LIGHTHOUSE_RUNS ?? '1', 10) || 1);
// LIGHTHOUSE_REPORT=flow.html keeps Lighthouse's own report of every step (and flow.json beside it), one
// pair per preset (flow-mobile.html, flow-desktop.html), and per run when there are several
// (flow-mobile-2.html).
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

/** A page's figures from one Lighthouse run, or why it could not be measured. */
function figures(lhr) {
  // A load that failed (the server answering 500, nothing painted) has no figures, only Lighthouse's reason.
  if (lhr.runtimeError) return { failed: lhr.runtimeError.code };
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    lcp: lhr.audits['largest-contentful-paint'].numericValue,
    tbt: lhr.audits['total-blocking-time'].numericValue,
    cls: lhr.audits['cumulative-layout-shift'].numericValue,
  };
}

/** Each figure's median over a page's runs (by nearest rank); a page that failed in any run failed. */
function medianFigures(runs) {
  const failed = runs.find((run) => run.failed);
  if (failed) return failed;
  const median = (key) =>
    percentile(
      runs.map((run) => run[key]).sort((a, b) => a - b),
      50,
    );
  return { score: median('score'), lcp: median('lcp'), tbt: median('tbt'), cls: median('cls') };
}

function row(name, page, target) {
  if (page.failed) return [name, '-', '-', '-', '-', `failed: ${page.failed}`];
  const { score, lcp, tbt, cls } = page;
  const met = score >= target.score && lcp <= target.lcpMs && tbt <= target.tbtMs && cls <= target.cls;
  return [name, String(score), seconds(lcp), ms(tbt), cls.toFixed(3), met ? 'met' : 'missed'];
}

function printTable(preset, rows) {
  const target = PRESETS[preset];
  const runs = RUNS > 1 ? `, median of ${RUNS} runs` : '';
  const head = [`Page (${preset}${runs})`, 'Performance', 'LCP', 'TBT', 'CLS', 'Target'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  say(line(head));
  for (const r of rows) say(line(r));
  say(
    `Target on every page (${preset}): performance >= ${target.score}, LCP <= ${seconds(target.lcpMs)}, ` +
      `TBT <= ${ms(target.tbtMs)}, CLS <= ${target.cls}.`,
  );
  say();
}

async function signIn(page) {
  await page.goto(`${base}/login`);
  await page.locator('input[autocomplete="username"]').fill('admin');
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await Promise.all([
    page.waitForFunction("location.pathname.endsWith('/overview')"),
    page.locator('button[type="submit"]').click(),
  ]);
}

/**
 * One run of a preset's flow, in a browser context of its own (no cookies, an empty cache): the sign-in page
 * as a new visitor gets it, then every page as a signed-in user loading it. Returns each page's name and
 * figures, in order.
 */
async function measure(preset, run) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const flow = await startFlow(page, { config: PRESETS[preset].config, name: `Lumi Admin (${preset})` });
  const names = [];
  const of = RUNS > 1 ? `, run ${run} of ${RUNS}` : '';
  say(`Lighthouse (${preset}${of}): sign-in page…`);
  await flow.navigate(`${base}/login`, { name: 'sign-in' });
  names.push('sign-in');
  await signIn(page);
  const cdp = await page.createCDPSession();
  for (const [name, target] of SCREENS) {
    say(`Lighthouse (${preset}${of}): ${name}…`);
    // User flows keep storage between steps, so each load restores the session as a signed-in user's does;
    // the HTTP cache is emptied first, so every page is loaded as on a phone that opens it the first time
    // (an alert's link), not from what the previous page downloaded.
    await cdp.send('Network.clearBrowserCache');
    await flow.navigate(`${base}/${target}`, { name });
    names.push(name);
  }
  const result = await flow.createFlowResult();
  if (reportFile) {
    const file = reportFile.replace(/(\.html)?$/, `-${preset}${run > 1 ? `-${run}` : ''}.html`);
    writeFileSync(file, await flow.generateReport());
    writeFileSync(file.replace(/\.html$/, '.json'), JSON.stringify(result));
    say(`Lighthouse's report: ${file}`);
  }
  await context.close();
  return result.steps.map((step, i) => ({ name: names[i], figures: figures(step.lhr) }));
}

/** A preset's table: each page's median over RUNS runs of its flow. */
async function measureRuns(preset) {
  const runs = [];
  for (let run = 1; run <= RUNS; run += 1) runs.push(await measure(preset, run));
  return runs[0].map(({ name }, i) =>
    row(name, medianFigures(runs.map((pages) => pages[i].figures)), PRESETS[preset]),
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
  const tables = [];
  for (const preset of PRESET_NAMES) tables.push([preset, await measureRuns(preset)]);
  say();
  for (const [preset, rows] of tables) printTable(preset, rows);
}

try {
  await main();
} catch (error) {
  process.stderr.write(`\n${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
