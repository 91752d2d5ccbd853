import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterJobs } from '../src/jobs.js';
import { JobScheduler } from '../src/modules/cluster/job-scheduler.js';
import { systemClock } from '../src/lib/time.js';
import { createRule, createWebhookPoint } from './alerts-helper.js';
import { eventually } from './cluster-process.js';
import { createTestApp, dialects, type TestApp } from './helper.js';
import { botKey, events, ingest } from './telemetry-helper.js';
import { WebhookReceiver } from '@lumi/test-support/webhook-receiver';

const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };

/**
 * Alert evaluation across instances (docs/bot-developers/alerts.md): two instances on one PostgreSQL database both run the `alerts` job every second
 * (ALERT_EVALUATION_SECONDS=1); the rules are evaluated once per interval, by one of them, a firing rule
 * notifies once, and the other takes the job over within an interval when the first stops.
 */
describe.skipIf(!dialects.includes('postgres'))('alert evaluation on two instances', () => {
  let t: TestApp;
  let other: FastifyInstance;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await createTestApp({ dialect: 'postgres' });
    other = await t.secondInstance();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  /** A scheduler with the alerts jobs of `app`, each start of the evaluation noted with its time. */
  const scheduler = (name: string, app: FastifyInstance, runs: { by: string; at: number }[]) => {
    const made = new JobScheduler(app.db, systemClock, name, quiet, 3000);
    const jobs = clusterJobs(app.services, {
      housekeepingSeconds: 600,
      log: quiet,
      scheduleCatchupMinutes: 60,
      timezone: 'UTC',
      now: systemClock,
      alertEvaluationSeconds: 1,
    });
    for (const job of jobs.filter((j) => j.name === 'alerts' || j.name === 'alert-notifications')) {
      made.add(
        job.name === 'alerts'
          ? {
              ...job,
              run: () => {
                runs.push({ by: name, at: Date.now() });
                return job.run();
              },
            }
          : job,
      );
    }
    return made;
  };

  it('evaluates once per interval on one instance, notifies once, and fails over within an interval', async () => {
    const admin = await t.loginAdmin();
    const hook = await createWebhookPoint(t, admin, receiver.url);
    const rule = await createRule(t, admin, { contact_point_ids: [hook.id] });
    await ingest(t.app, await botKey(t), [events.heartbeat(Date.now(), { telegram_status: 'disconnected' })]);

    const runs: { by: string; at: number }[] = [];
    const first = scheduler('first', t.app, runs);
    const second = scheduler('second', other, runs);
    expect(first.checkEveryMs()).toBe(500);
    try {
      first.start();
      second.start();
      await eventually(() => (runs.length >= 5 ? true : undefined), 15_000, 'five passes');
      const leader = runs[0]!.by;
      expect(new Set(runs.map((r) => r.by))).toEqual(new Set([leader]));
      const gaps = runs.slice(1).map((run, i) => run.at - runs[i]!.at);
      // Never two passes within an interval, and never a whole interval missed.
      for (const gap of gaps) {
        expect(gap).toBeGreaterThanOrEqual(950);
        expect(gap).toBeLessThan(2_000);
      }
      await eventually(() => (receiver.received.length > 0 ? true : undefined), 5_000, 'the notification');
      await sleep(1_500);
      expect(receiver.received.map((r) => JSON.parse(r.body).kind)).toEqual(['firing']);
      const state = await t.app.db
        .selectFrom('alert_rules')
        .select(['state', 'last_evaluated_at'])
        .where('id', '=', rule.id)
        .executeTakeFirstOrThrow();
      expect(state.state).toBe('firing');
      expect(Date.now() - Date.parse(state.last_evaluated_at!)).toBeLessThan(2_500);

      const history = await t.app.db.selectFrom('alert_history').selectAll().execute();
      expect(history.map((h) => h.to_state)).toEqual(['firing']);

      // The leader stops: the other instance runs the next pass within an interval and a check.
      const [leading, follower] = leader === 'first' ? [first, 'second'] : [second, 'first'];
      await leading.stop();
      const stoppedAt = Date.now();
      await eventually(() => (runs.some((r) => r.by === follower) ? true : undefined), 5_000, 'the takeover');
      const takeover = runs.find((r) => r.by === follower)!;
      expect(takeover.at - stoppedAt).toBeLessThan(2_000);
      await sleep(1_500);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });
});
