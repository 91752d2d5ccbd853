import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { loadSecret, openAndMigrate, seed } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';

const HOUSEKEEPING_MS = 10 * 60 * 1000;
/** Raw telemetry past RETENTION_DAYS and rollups past 400 days are pruned this often (and at start). */
const RETENTION_MS = 60 * 60 * 1000;

async function main() {
  const config = loadConfig();
  const here = path.dirname(fileURLToPath(import.meta.url));
  const handle = await openAndMigrate(config);
  const app = await buildApp({
    db: handle.db,
    dialect: handle.dialect,
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
    },
    telegram: { botToken: config.TELEGRAM_BOT_TOKEN, apiBaseUrl: config.TELEGRAM_API_BASE_URL },
  });

  const first = await seed(app.services, config);
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

  const housekeeping = setInterval(() => {
    app.services.auth.prune().catch((error: unknown) => app.log.warn({ err: error }, 'housekeeping failed'));
  }, HOUSEKEEPING_MS);
  housekeeping.unref();
  const pruneTelemetry = () => {
    app.services.telemetry
      .prune()
      .then((removed) => app.log.info(removed, 'telemetry retention: pruned old events and rollups'))
      .catch((error: unknown) => app.log.warn({ err: error }, 'telemetry retention failed'));
  };
  const retention = setInterval(pruneTelemetry, RETENTION_MS);
  retention.unref();
  pruneTelemetry();

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    clearInterval(housekeeping);
    clearInterval(retention);
    // app.close() stops accepting connections and waits for requests in flight; then the database closes.
    app
      .close()
      .then(() => handle.db.destroy())
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
    `Lumi Admin is running (${handle.dialect}).\n  Console: http://${shown}:${config.PORT}/admin\n  API:     http://${shown}:${config.PORT}/api (docs at /api/docs)\n`,
  );
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
