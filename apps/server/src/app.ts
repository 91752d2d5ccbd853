import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { LocalInvalidation, type Invalidation } from './modules/cluster/invalidation.js';
import type { DialectName } from './db/connection.js';
import type { Database } from './db/database.js';
import { PasswordHasher } from './lib/password.js';
import { requestIdGenerator } from './lib/request-id.js';
import { lazyRequestLogger } from './lib/request-logger.js';
import { fastifyTrustProxy, type TrustProxy } from './lib/trust-proxy.js';
import { encodeFrozenOnce } from './lib/shared-answers.js';
import { systemClock, type Clock } from './lib/time.js';
import { alertsRoutes } from './modules/alerts/alerts.routes.js';
import type { AlertSettings } from './modules/alerts/alerts.wiring.js';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { twoFactorRoutes } from './modules/auth/two-factor.routes.js';
import { AUTH_CACHE_SECONDS_DEFAULT } from './modules/auth/principal-cache.js';
import { configItemsRoutes } from './modules/config-items/config-items.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { messagingRoutes } from './modules/messaging/messaging.routes.js';
import type { SenderSettings } from './modules/messaging/deliveries/sender-settings.js';
import type { TelegramSettings } from './modules/messaging/telegram/telegram-client.js';
import { rolesRoutes } from './modules/roles/roles.routes.js';
import { sessionsRoutes } from './modules/sessions/sessions.routes.js';
import { budgetsRoutes } from './modules/budgets/budgets.routes.js';
import { ingestionRoutes } from './modules/ingestion/ingestion.routes.js';
import { limitsRoutes } from './modules/limits/limits.routes.js';
import { changeMarkersRoutes } from './modules/metrics/change-markers.routes.js';
import { latencyRoutes } from './modules/metrics/latency.routes.js';
import { llmCallsRoutes } from './modules/metrics/llm-calls.routes.js';
import { llmDimensionsRoutes } from './modules/metrics/llm-dimensions.routes.js';
import { metricsExportRoutes } from './modules/metrics/metrics-export.routes.js';
import { metricsRoutes } from './modules/metrics/metrics.routes.js';
import { TELEMETRY_DEFAULTS, type TelemetrySettings } from './modules/telemetry-store/telemetry.settings.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { authPlugin } from './plugins/auth.js';
import { clientError, errorsPlugin, frameworkError } from './plugins/errors.js';
import { openapiPlugin } from './plugins/openapi.js';
import { requestInputPlugin } from './plugins/request-input.js';
import { responseHeadersPlugin } from './plugins/response-headers.js';
import { staticConsolePlugin } from './plugins/static-console.js';
import type { IngestDatabase } from './modules/ingestion/ingest-writer.js';
import { createServices, type Services } from './services.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dialect: DialectName;
    services: Services;
    sessionSeconds: number;
    /** Set by the process when shutdown starts: /api/ready answers 503 from then on. */
    readiness: { shuttingDown: boolean };
  }
}

export interface AppOptions {
  db: Kysely<Database>;
  dialect: DialectName;
  /**
   * The database again, for ingestion's worker thread, which stores batches through a connection of its
   * own (modules/ingestion/ingest-writer.ts): the SQLite file or the PostgreSQL URL. Without it (tests, an
   * in-memory database) batches are stored through `db` in this thread.
   */
  ingestDatabase?: IngestDatabase;
  /** Signing key for access tokens (LUMI_SECRET). */
  secret: Uint8Array;
  sessionHours?: number;
  /** LUMI_AUTH_CACHE_SECONDS: how long a signed-in principal or a checked API key is reused here (default 5). */
  authCacheSeconds?: number;
  /** LUMI_TRUST_PROXY: which proxies may name the client (a hop count or addresses); never all. */
  trustProxy?: TrustProxy;
  logLevel?: string;
  /** The built console (apps/web/dist); null serves a hint instead. */
  consoleRoot?: string | null;
  /** Tests pass a cheaper hasher; production uses the OWASP parameters. */
  passwordHasher?: PasswordHasher;
  /** RETENTION_DAYS, HEARTBEAT_STALE_SECONDS, MARKET_DATA_FRESH_SECONDS, LUMI_TIMEZONE; defaults otherwise. */
  telemetry?: Partial<TelemetrySettings>;
  /** "Now" for every service (timestamps, expiries, throttling, telemetry windows); tests pass a clock they control. */
  now?: Clock;
  /** TELEGRAM_BOT_TOKEN and TELEGRAM_API_BASE_URL; tests point it at a local Bot API stand-in. */
  telegram?: TelegramSettings;
  /** Tells every instance to forget stale cache entries; in-process only by default (SQLite, tests). */
  invalidation?: Invalidation;
  /** This instance's name in job and delivery leases; one is made up when not given. */
  instanceId?: string;
  /** The delivery sender's limits and timings (tests shorten them); Telegram's limits by default. */
  sender?: Partial<SenderSettings>;
  /** LUMI_PUBLIC_URL (http://localhost:3000 by default) and the webhooks' timings (tests shorten them). */
  alerts?: Partial<AlertSettings>;
}

/** The console's base URL in alerts when LUMI_PUBLIC_URL is not given to buildApp. */
const PUBLIC_URL_DEFAULT = 'http://localhost:3000';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Builds the Fastify instance from its plugins and modules; does not listen. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const nextRequestId = requestIdGenerator();
  const app = Fastify({
    logger: {
      level: options.logLevel ?? 'info',
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'res.headers["set-cookie"]',
          '*.password',
          '*.new_password',
          '*.current_password',
          '*.refresh_token',
          '*.access_token',
        ],
        censor: '[redacted]',
      },
    },
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: nextRequestId,
    childLoggerFactory: lazyRequestLogger,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError(nextRequestId),
  }).withTypeProvider<ZodTypeProvider>();

  app.setSerializerCompiler(encodeFrozenOnce(serializerCompiler));

  const sessionSeconds = Math.round((options.sessionHours ?? 12) * 3600);
  const services = createServices({
    db: options.db,
    ingestDatabase: options.ingestDatabase,
    secret: options.secret,
    hasher: options.passwordHasher ?? new PasswordHasher(),
    sessionSeconds,
    authCacheSeconds: options.authCacheSeconds ?? AUTH_CACHE_SECONDS_DEFAULT,
    now: options.now ?? systemClock,
    telemetry: { ...TELEMETRY_DEFAULTS, ...options.telemetry },
    telegram: options.telegram,
    invalidation: options.invalidation ?? new LocalInvalidation(),
    instanceId: options.instanceId ?? `local:${process.pid}:${randomBytes(3).toString('hex')}`,
    sender: options.sender,
    alerts: { publicUrl: PUBLIC_URL_DEFAULT, ...options.alerts },
    log: app.log,
  });
  app.decorate('db', options.db);
  app.decorate('readiness', { shuttingDown: false });
  app.decorate('dialect', options.dialect);
  app.decorate('services', services);
  // Before the database goes: the allowance's counts kept in memory are written, and on PostgreSQL the
  // instances left may count alone (modules/cluster/sole-instance.ts).
  app.addHook('onClose', () => services.allowance.close());
  app.decorate('sessionSeconds', sessionSeconds);

  await app.register(errorsPlugin);
  await app.register(requestInputPlugin);
  await app.register(responseHeadersPlugin);
  await app.register(authPlugin, {
    authenticate: (token: string) => services.auth.authenticate(token),
    authenticateKey: (token: string) => services.apiKeys.authenticate(token),
  });
  await app.register(openapiPlugin);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(twoFactorRoutes);
      await api.register(sessionsRoutes);
      await api.register(usersRoutes);
      await api.register(rolesRoutes);
      await api.register(auditRoutes);
      await api.register(configItemsRoutes);
      await api.register(apiKeysRoutes);
      await api.register(ingestionRoutes);
      await api.register(metricsRoutes);
      await api.register(llmDimensionsRoutes);
      await api.register(llmCallsRoutes);
      await api.register(latencyRoutes);
      await api.register(changeMarkersRoutes);
      await api.register(metricsExportRoutes);
      await api.register(budgetsRoutes);
      await api.register(limitsRoutes);
      await api.register(messagingRoutes);
      await api.register(alertsRoutes);
    },
    { prefix: '/api' },
  );
  await app.register(staticConsolePlugin, { root: options.consoleRoot ?? null });

  return app;
}
