/**
 * Part `alerts` of the benchmark (run through tsx on the database the generators loaded), two figures of
 * BENCH_ALERT_PASSES passes (default 10) one after the other, each pass over BENCH_ALERT_RULES rules
 * (default 200) spread over every condition type, on the server's own connection settings:
 * - the engine: the pass's data reader (createAlertData), then per rule its condition (evaluateCondition),
 *   whether a silence covers it (isSilenced, three silences) and its state machine step;
 * - the whole pass as the `alerts` job runs it (AlertEvaluator.runPass of an app built on the database,
 *   with the rules stored through the rules service): the engine plus each rule's writes (state, history,
 *   notifications) and the webhook notifications, posted to a local receiver on port 4150.
 * Prints one JSON line with each pass's milliseconds and the queries one engine pass made.
 *
 * Environment: BENCH_SQLITE_FILE or BENCH_DATABASE_URL, BENCH_ALERT_RULES, BENCH_ALERT_PASSES.
 */
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import {
  alertConditionSchema,
  alertRuleInputSchema,
  type AlertConditionInput,
  type AlertSeverity,
} from '@lumi/contract';
import type { KyselyPlugin } from 'kysely';
import { buildApp } from '../../apps/server/src/app.js';
import { openDatabase, type DatabaseHandle } from '../../apps/server/src/db/connection.js';
import { createAlertData, type AlertSources } from '../../apps/server/src/modules/alerts/alert-data.js';
import { evaluateCondition } from '../../apps/server/src/modules/alerts/conditions.js';
import { isSilenced, type SilenceWindow } from '../../apps/server/src/modules/alerts/silences.js';
import { INITIAL_RUNTIME, step } from '../../apps/server/src/modules/alerts/state-machine.js';
import { LLM_MODELS } from '../demo/simulated-bot.mjs';

const RULES = Number(process.env.BENCH_ALERT_RULES ?? 200);
const PASSES = Number(process.env.BENCH_ALERT_PASSES ?? 10);
const TIMEZONE = 'Europe/Berlin';
/** The local webhook receiver of the whole-pass figure (in the benchmark's port range). */
const RECEIVER_PORT = 4150;
const WINDOWS = [5, 15, 60, 1440];
const models = LLM_MODELS as { provider: string; model: string }[];
const providers = [...new Set(models.map((m) => m.provider))];

/** The i-th rule's condition: the types in turn, each with windows, scopes and thresholds varied. */
function condition(i: number): AlertConditionInput {
  const minutes = WINDOWS[Math.floor(i / 11) % WINDOWS.length]!;
  const model = models[i % models.length]!;
  const scoped = i % 3 === 0;
  const conditions: AlertConditionInput[] = [
    { type: 'heartbeat_missing', seconds: 60 + i },
    { type: 'telegram_disconnected' },
    // Half of them hold (the bot reports an error every two minutes), so passes notify too.
    { type: 'errors', count: i % 2 === 0 ? 0 : 10 + i, minutes, source: scoped ? 'scheduler' : null },
    {
      type: 'llm_cost',
      usd: 5 + i,
      window: i % 2 === 0 ? 'hour' : 'day',
      provider: scoped ? model.provider : null,
      model: i % 5 === 0 ? model.model : null,
    },
    {
      type: 'llm_failure_rate',
      percent: 5,
      minutes,
      min_calls: 20,
      provider: scoped ? model.provider : null,
      model: null,
    },
    { type: 'llm_latency', ms: 2000, minutes, provider: null, model: scoped ? model.model : null },
    { type: 'budget_usage', provider: providers[i % providers.length]!, percent: i % 2 === 0 ? 80 : 100 },
    { type: 'integration_success_rate', service: 'exchange', percent: 95, minutes, min_calls: 10 },
    { type: 'market_data_stale', minutes: 5, websocket: true },
    { type: 'cache_hit_rate', percent: 60, minutes, min_lookups: 100 },
    { type: 'delivery_failures', count: 5, minutes },
  ];
  return conditions[i % conditions.length]!;
}

/**
 * The engine's passes: reads, conditions, silences and steps, without the rules' writes. The reads go
 * through the services the alert rules read from, built on a connection that counts the queries.
 */
async function enginePasses(handle: DatabaseHandle) {
  let queries = 0;
  const counter: KyselyPlugin = {
    transformQuery: (args) => {
      queries += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  const counted = handle.db.withPlugin(counter);
  const app = await buildApp({
    ...handle,
    db: counted,
    secret: randomBytes(32),
    logLevel: 'silent',
    consoleRoot: null,
  });
  const sources: AlertSources = {
    metrics: app.services.metricsReads,
    budgets: app.services.budgets,
    deliveries: app.services.messaging.deliveries,
    limits: app.services.limits,
  };

  const rules = Array.from({ length: RULES }, (_, i) => ({
    id: i + 1,
    severity: (i % 4 === 0 ? 'critical' : 'warning') as AlertSeverity,
    condition: alertConditionSchema.parse(condition(i)),
    settings: {
      pending_seconds: 60,
      no_data: 'keep' as const,
      renotify_minutes: 60,
      notify_on_resolve: true,
    },
  }));
  const created = new Date().toISOString();
  const silences: SilenceWindow[] = [
    { kind: 'once', rule_id: 7, severity: null, starts_at: null, ends_at: '2100-01-01T00:00:00.000Z' },
    { kind: 'recurring', rule_id: null, severity: 'warning', weekdays: ['sunday'], start_time: '02:00' },
    {
      kind: 'recurring',
      rule_id: null,
      severity: null,
      weekdays: ['monday', 'thursday'],
      start_time: '23:30',
    },
  ].map((s) => ({
    starts_at: null,
    ends_at: null,
    weekdays: null,
    start_time: null,
    duration_minutes: s.kind === 'recurring' ? 120 : null,
    timezone: s.kind === 'recurring' ? TIMEZONE : null,
    created_at: created,
    ...s,
  })) as SilenceWindow[];

  const passes: number[] = [];
  const holding = { holds: 0, clear: 0, noData: 0 };
  let passQueries = 0;
  for (let pass = 0; pass < PASSES; pass += 1) {
    queries = 0;
    const started = performance.now();
    const now = Date.now();
    const data = createAlertData(sources, now, { timezone: TIMEZONE });
    for (const rule of rules) {
      const evaluation = await evaluateCondition(rule.condition, data);
      const silenced = isSilenced(rule, silences, now);
      step(
        { condition_type: rule.condition.type, ...rule.settings },
        INITIAL_RUNTIME,
        evaluation,
        now,
        silenced,
      );
      if (pass === 0) {
        if (evaluation.holds === null) holding.noData += 1;
        else if (evaluation.holds) holding.holds += 1;
        else holding.clear += 1;
      }
    }
    passes.push(performance.now() - started);
    passQueries = queries;
  }
  await app.close();
  return { passes, queries: passQueries, ...holding };
}

/**
 * The whole pass of the `alerts` job: the rules stored through the rules service (a quarter firing at
 * once, so the first pass writes history and notifications too), one webhook contact point.
 */
async function wholePasses(handle: DatabaseHandle) {
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(RECEIVER_PORT, '127.0.0.1', resolve));
  const app = await buildApp({ ...handle, secret: randomBytes(32), logLevel: 'silent', consoleRoot: null });
  try {
    const actor = { id: null, username: 'bench', ip: null, userAgent: null };
    const { alerts } = app.services;
    const point = await alerts.contactPoints.create(actor, {
      name: 'bench receiver',
      type: 'webhook',
      url: `http://127.0.0.1:${RECEIVER_PORT}/alerts`,
    });
    for (let i = 0; i < RULES; i += 1) {
      await alerts.rules.create(
        actor,
        alertRuleInputSchema.parse({
          name: `bench rule ${i + 1}`,
          condition: condition(i),
          severity: i % 4 === 0 ? 'critical' : 'warning',
          pending_seconds: i % 4 === 0 ? 0 : 60,
          renotify_minutes: 60,
          contact_point_ids: [point.id],
        }),
      );
    }
    const passes: number[] = [];
    let first = null;
    for (let pass = 0; pass < PASSES; pass += 1) {
      const started = performance.now();
      const result = await alerts.evaluator.runPass();
      passes.push(performance.now() - started);
      first ??= result;
    }
    return { passes, first };
  } finally {
    await app.close();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

async function main() {
  const sqliteFile = process.env.BENCH_SQLITE_FILE;
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!sqliteFile && !databaseUrl) throw new Error('Set BENCH_SQLITE_FILE or BENCH_DATABASE_URL');
  const handle = openDatabase(databaseUrl ? { databaseUrl } : { sqliteFile });
  try {
    const engine = await enginePasses(handle);
    const whole = await wholePasses(handle);
    process.stdout.write(`${JSON.stringify({ rules: RULES, ...engine, whole })}\n`);
  } finally {
    await handle.db.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `\nThe alert pass failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
