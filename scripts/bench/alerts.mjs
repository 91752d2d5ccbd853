// Part `alerts` of `npm run bench` (scripts/bench.mjs): the dashboards' llm_call events (load-llm-calls.ts)
// and the rest of a bot's telemetry of the same 29 days (load-alert-data.ts) in a scratch database, then
// ALERT_PASSES evaluation passes of ALERT_RULES rules, in-process on the server's own code (alerts-pass.ts);
// on SQLite and, with DATABASE_URL, PostgreSQL.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { say } from './print.mjs';
import { reportAlerts } from './report.mjs';
import { load, scratchDir, scratchPostgres } from './scratch.mjs';
import { ALERT_PASSES, ALERT_RULES, DATABASE_URL, TARGETS } from './settings.mjs';

/** Measures and reports the part. */
export async function alertsPart() {
  const dir = path.join(scratchDir, 'alerts');
  mkdirSync(dir, { recursive: true });
  const runs = [await benchAlerts('SQLite', { BENCH_SQLITE_FILE: path.join(dir, 'lumi.db') })];
  rmSync(dir, { recursive: true, force: true });
  if (DATABASE_URL)
    runs.push(await benchAlerts('PostgreSQL', { BENCH_DATABASE_URL: await scratchPostgres('alerts') }));
  reportAlerts(runs, { rules: ALERT_RULES, passes: ALERT_PASSES, targets: TARGETS });
}

async function benchAlerts(label, env) {
  const llm = await load(env);
  const other = await load(env, 'load-alert-data.ts');
  say(`Alerts on ${label}: ${ALERT_PASSES} evaluation passes of ${ALERT_RULES} rules…`);
  const pass = await load(
    { ...env, BENCH_ALERT_RULES: String(ALERT_RULES), BENCH_ALERT_PASSES: String(ALERT_PASSES) },
    'alerts-pass.ts',
  );
  return { label, events: llm.events + other.events, deliveries: other.deliveries, ...pass };
}
