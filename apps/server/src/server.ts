import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { buildApp } from './app.js';
import { loadSecret, openAndMigrate, seed } from './bootstrap.js';
import { LocalInvalidation, PostgresInvalidation } from './modules/cluster/invalidation.js';
import { JobScheduler } from './modules/cluster/job-scheduler.js';
import { ConfigError, loadConfig, publicUrlOf } from './config.js';
import { clusterJobs } from './jobs.js';
import { systemClock } from './lib/time.js';
import { WalCheckpointer } from './db/wal-checkpointer.js';
import { recoverSpend } from './modules/telemetry-store/telemetry-store.js';

async function main() {
  // A request's objects die within a millisecond, but a burst that queues requests (a start under load)
  // keeps them alive across young collections, and V8 may then allocate from those sites in the old
  // generation for good: garbage that only a full collection frees, one every 4 to 5 s at 2,000 allowance
  // checks a second instead of every 8 or more (docs/benchmarks.md, "Allowance"). Node keeps V8's flags
  // writable after start, and this one is read at each collection.
  setFlagsFromString('--no-allocation-site-pretenuring');
  const config = loadConfig();
  const here = path.dirname(fileURLToPath(import.meta.url));
  const handle = await openAndMigrate(config);
  const checkpointer = handle.file ? WalCheckpointer.start(handle.file) : null;
  // How this process appears in job leases and logs: several may run on one host.
  const instanceId = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const invalidation =
    handle.dialect === 'postgres' && config.DATABASE_URL
      ? new PostgresInvalidation(handle.db, config.DATABASE_URL, instanceId, {
          info: (details, message) => app.log.info(details, message),
          warn: (details, message) => app.log.warn(details, message),
        })
      : new LocalInvalidation();
  const app = await buildApp({
    db: handle.db,
    dialect: handle.dialect,
    ingestDatabase: config.DATABASE_URL
      ? { databaseUrl: config.DATABASE_URL }
      : handle.file
        ? { sqliteFile: handle.file }
        : undefined,
    secret: loadSecret(config),
    sessionHours: config.LUMI_SESSION_HOURS,
    authCacheSeconds: config.LUMI_AUTH_CACHE_SECONDS,
    trustProxy: config.LUMI_TRUST_PROXY,
    logLevel: config.LOG_LEVEL,
    consoleRoot: path.resolve(here, '../../web/dist'),
    telemetry: {
      timezone: config.LUMI_TIMEZONE,
      heartbeatStaleSeconds: config.HEARTBEAT_STALE_SECONDS,
      marketDataFreshSeconds: config.MARKET_DATA_FRESH_SECONDS,
      retentionDays: config.RETENTION_DAYS,
      contentRetentionDays: config.LUMI_CONTENT_RETENTION_DAYS,
    },
    telegram: { botToken: config.TELEGRAM_BOT_TOKEN, apiBaseUrl: config.TELEGRAM_API_BASE_URL },
    invalidation,
    instanceId,
    sender: {
      maxAttempts: config.LUMI_DELIVERY_MAX_ATTEMPTS,
      maxAgeMs: config.LUMI_DELIVERY_MAX_AGE_MINUTES * 60_000,
      leaseMs: config.LUMI_DELIVERY_LEASE_SECONDS * 1000,
    },
    alerts: { publicUrl: publicUrlOf(config) },
  });
  if (invalidation instanceof PostgresInvalidation) await invalidation.start();
  // On SQLite, the chats' and users' spend of calls a stop left unwritten (telemetry-store/spend-buffer.ts).
  const recovered = handle.file ? await recoverSpend(handle.db) : 0;
  if (recovered > 0)
    app.log.info({ calls: recovered }, 'added the spend of calls stored just before the last stop');

  const first = await seed(app.db, app.services, config);
  if (first.created) {
    const lines = [
      `Created the first admin user '${config.LUMI_ADMIN_USERNAME}'.`,
      first.password
        ? `Its password, shown only this once: ${first.password}`
        : 'Its password is the one in LUMI_ADMIN_PASSWORD.',
      'Change it after signing in (Profile > Change password).',
    ];
    process.stdout.write(`\n${lines.map((l) => `  ${l}`).join('\n')}\n\n`);
  }

  // Today's and the next days' event partitions exist before the first event arrives (PostgreSQL).
  await app.services.telemetryStore.housekeeping.maintainPartitions();
  const jobs = new JobScheduler(
    handle.db,
    systemClock,
    instanceId,
    app.log,
    config.LUMI_JOB_LEASE_SECONDS * 1000,
  );
  for (const job of clusterJobs(app.services, {
    housekeepingSeconds: config.LUMI_HOUSEKEEPING_SECONDS,
    log: app.log,
    scheduleCatchupMinutes: config.LUMI_SCHEDULE_CATCHUP_MINUTES,
    timezone: config.LUMI_TIMEZONE,
    now: systemClock,
    alertEvaluationSeconds: config.ALERT_EVALUATION_SECONDS,
    deliveryRetentionDays: config.LUMI_DELIVERY_RETENTION_DAYS,
  })) {
    jobs.add(job);
  }

  // Every instance sends queued deliveries (each is taken by one); without a bot token they wait.
  const { sender } = app.services.messaging;
  if (!config.TELEGRAM_BOT_TOKEN) {
    app.log.warn({}, 'TELEGRAM_BOT_TOKEN is not set: deliveries are accepted and wait until it is');
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    // From now on /api/ready answers 503, so a load balancer stops sending new requests here; during
    // LUMI_SHUTDOWN_DELAY_SECONDS everything is still served while it notices.
    app.readiness.shuttingDown = true;
    app.log.info({ signal, instance: instanceId }, 'shutting down: finishing requests in flight');
    sleep(config.LUMI_SHUTDOWN_DELAY_SECONDS * 1000)
      // app.close() stops accepting connections and waits for requests in flight; meanwhile the jobs
      // running here finish and the job leases are released, so another instance takes them over.
      .then(() => Promise.all([app.close(), jobs.stop(), sender.stop()]))
      .then(() => app.services.integrations.flush())
      // The allowance's last counts go through the ingest worker; after them and the last report, the
      // batches in hand are stored, then the worker stops.
      .then(() =>
        app.services.limits
          .close()
          .catch((error: unknown) =>
            app.log.error({ err: error }, 'the allowance’s last counts were not written'),
          ),
      )
      .then(() => app.services.ingestion.close())
      .then(() => invalidation.close())
      .then(() => handle.db.destroy())
      .then(() => checkpointer?.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const shown = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  process.stdout.write(
    `Lumi Admin is running (${handle.dialect}, instance ${instanceId}).\n  Console: http://${shown}:${config.PORT}/admin\n  API:     http://${shown}:${config.PORT}/api (docs at /api/docs)\n`,
  );
  jobs.start();
  if (config.TELEGRAM_BOT_TOKEN) sender.start();
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\nFix the variable(s) above and start again.\n`);
  } else {
    process.stderr.write(
      `Lumi Admin could not start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
  }
  process.exit(1);
});
