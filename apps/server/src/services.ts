import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Invalidation } from './modules/cluster/invalidation.js';
import type { Database } from './db/database.js';
import type { PasswordHasher } from './lib/password.js';
import type { Clock } from './lib/time.js';
import { TtlCache } from './lib/ttl-cache.js';
import {
  createAlertServices,
  type AlertServices,
  type AlertSettings,
} from './modules/alerts/alerts.wiring.js';
import { ApiKeysService, type ApiKeyPrincipal } from './modules/api-keys/api-keys.service.js';
import { AuditService } from './modules/audit/audit.service.js';
import { AuthService, type Principal } from './modules/auth/auth.service.js';
import { PrincipalCache } from './modules/auth/principal-cache.js';
import { SignInThrottle } from './modules/auth/sign-in-throttle.js';
import { SecretBox } from './modules/auth/two-factor.crypto.js';
import { TwoFactorService } from './modules/auth/two-factor.service.js';
import { UserSecurityService } from './modules/auth/user-security.service.js';
import { BudgetsService } from './modules/budgets/budgets.service.js';
import { BotConfigService } from './modules/config-items/bot-config.service.js';
import { ConfigItemsService } from './modules/config-items/config-items.service.js';
import { ConfigTransferService } from './modules/config-items/config-transfer.service.js';
import { InProcessIngest, IngestWorker, type IngestDatabase } from './modules/ingestion/ingest-writer.js';
import { IngestionService } from './modules/ingestion/ingestion.service.js';
import { OtlpTraceService } from './modules/ingestion/otlp.service.js';
import { LlmCallsService } from './modules/metrics/llm-calls.service.js';
import { AllowanceService } from './modules/limits/allowance.service.js';
import { LimitsService } from './modules/limits/limits.service.js';
import { isPostgres } from './db/locks.js';
import { UsageReader } from './modules/limits/usage-reader.js';
import { UsageMirror } from './modules/limits/usage-mirror.js';
import { exactGrants } from './modules/limits/exact-grants.js';
import { LimitEvents } from './modules/limits/limit-events.js';
import { IntegrationReporter } from './modules/ingestion/integration-reporter.js';
import { createMessagingServices, type MessagingServices } from './modules/messaging/messaging.wiring.js';
import type { SenderSettings } from './modules/messaging/deliveries/sender-settings.js';
import type { TelegramSettings } from './modules/messaging/telegram/telegram-client.js';
import { ChangeMarkersService } from './modules/metrics/change-markers.service.js';
import { FeedbackService } from './modules/metrics/feedback.service.js';
import { LatencyService } from './modules/metrics/latency.service.js';
import { LlmDimensionsService } from './modules/metrics/llm-dimensions.service.js';
import { MetricsExportService } from './modules/metrics/metrics-export.service.js';
import { MetricsReadService } from './modules/metrics/metrics-read.service.js';
import { MetricsService } from './modules/metrics/metrics.service.js';
import { RolesService } from './modules/roles/roles.service.js';
import { SessionControlService } from './modules/sessions/session-control.service.js';
import { SessionsService } from './modules/sessions/sessions.service.js';
import { TelemetryHousekeepingService } from './modules/telemetry-store/housekeeping.service.js';
import { TelemetryRetentionService } from './modules/telemetry-store/retention.service.js';
import type { TelemetrySettings } from './modules/telemetry-store/telemetry.settings.js';
import { AccountsService } from './modules/users/accounts.service.js';
import { UsersService } from './modules/users/users.service.js';

export interface Services {
  audit: AuditService;
  roles: RolesService;
  sessions: SessionsService;
  users: UsersService;
  accounts: AccountsService;
  auth: AuthService;
  /** Two-factor sign-in (docs/operators/security.md, "Two-factor sign-in"). */
  twoFactor: TwoFactorService;
  /** A user's own signed-in sessions (docs/operators/security.md, "Sessions"). */
  sessionControl: SessionControlService;
  /** An admin's sessions, two-factor and password resets for a user (docs/operators/security.md). */
  userSecurity: UserSecurityService;
  configItems: ConfigItemsService;
  configTransfer: ConfigTransferService;
  botConfig: BotConfigService;
  apiKeys: ApiKeysService;
  budgets: BudgetsService;
  /** Limits, bans and allowlists (docs/operators/limits.md). */
  limits: LimitsService;
  /** The decision a bot asks for before an LLM call (docs/bot-developers/limits.md). */
  allowance: AllowanceService;
  /** A bot's events and OTLP spans, and Lumi's own calls, checked and stored (docs/bot-developers/ingestion.md). */
  ingestion: IngestionService;
  /** OTLP trace exports, and each API key's latest ignored spans (docs/bot-developers/otlp.md). */
  otlp: OtlpTraceService;
  /** The telemetry store's jobs: retention (the `retention` job) and housekeeping (the `housekeeping` job). */
  telemetryStore: { retention: TelemetryRetentionService; housekeeping: TelemetryHousekeepingService };
  metrics: MetricsService;
  /** The stored telemetry's figures as other modules read them (the alert rules' conditions). */
  metricsReads: MetricsReadService;
  /** LLM usage by feature, chat and user, and errors by type (docs/operators/metrics.md). */
  llmDimensions: LlmDimensionsService;
  /** The calls behind the figures, page by page (docs/operators/metrics.md, "Calls"). */
  llmCalls: LlmCallsService;
  feedback: FeedbackService;
  latency: LatencyService;
  /**
   * The configuration, template, budget and price changes drawn on the charts (docs/operators/metrics.md,
   * "Change markers").
   */
  changeMarkers: ChangeMarkersService;
  /** The Metrics panels as CSV files (docs/operators/metrics.md, "CSV exports"). */
  metricsExport: MetricsExportService;
  messaging: MessagingServices;
  /** Lumi's own calls to outside services (Telegram), for the integrations panel. */
  integrations: IntegrationReporter;
  alerts: AlertServices;
}

/**
 * How long a dashboard answer (metrics, budget list) is served from memory. Ingestion, retention and budget
 * or price changes clear it on every instance as they commit (`invalidation`), so new events show at once;
 * the lifetime is the safety net should a notification between instances be lost.
 */
export const DASHBOARD_CACHE_TTL_MS = 5_000;

/**
 * The settled hours' part of long-range answers (modules/telemetry-store/settled-hours.ts): cleared on every
 * instance by changes that reach back before the current hour, which are rare, so it may live longer; the
 * lifetime is again the safety net. Few entries: one per dashboard range and interval in use.
 */
export const HISTORY_CACHE_TTL_MS = 60_000;
const HISTORY_CACHE_ENTRIES = 100;
/**
 * How long the allowance's mirror waits before asking again for a load that failed, or before loading again
 * when it was let go of but this instance is still alone (usage-mirror.ts).
 */
const MIRROR_RETRY_MS = 1_000;

/** Wires the services together; each module reaches another only through these. */
export function createServices(options: {
  db: Kysely<Database>;
  /** Where ingestion's worker thread connects; without it, batches are stored in this thread. */
  ingestDatabase?: IngestDatabase;
  secret: Uint8Array;
  hasher: PasswordHasher;
  sessionSeconds: number;
  /** How long a signed-in principal is reused on this instance (LUMI_AUTH_CACHE_SECONDS; 0 turns it off). */
  authCacheSeconds: number;
  /** "Now" for every service: timestamps, expiries, throttling windows and the telemetry rules. */
  now: Clock;
  telemetry: TelemetrySettings;
  /** The Telegram Bot API: TELEGRAM_BOT_TOKEN and TELEGRAM_API_BASE_URL. */
  telegram?: TelegramSettings;
  /** Clears the in-memory caches on every instance after a change (in-process only on SQLite). */
  invalidation: Invalidation;
  /** This instance's name (job leases, delivery leases). */
  instanceId: string;
  /** The delivery sender's limits, tries and timings; Telegram's limits and the defaults otherwise. */
  sender?: Partial<SenderSettings>;
  /** LUMI_PUBLIC_URL and the webhooks' timings. */
  alerts: AlertSettings;
  log: FastifyBaseLogger;
}): Services {
  const { db, secret, hasher, now } = options;
  const audit = new AuditService(db, now);
  const { invalidation } = options;
  const principals = new PrincipalCache<Principal>(now, options.authCacheSeconds * 1000);
  invalidation.on('access', () => principals.invalidate());
  const accessChanged = () => invalidation.publish('access');
  const roles = new RolesService(db, audit, now, accessChanged);
  const sessions = new SessionsService(db, now, options.sessionSeconds * 1000);
  const users = new UsersService(db, hasher, roles, sessions, audit, now, accessChanged);
  const accounts = new AccountsService(db, hasher, roles, audit, now);
  const throttle = new SignInThrottle(db, audit, now);
  const twoFactor = new TwoFactorService(
    db,
    new SecretBox(secret),
    accounts,
    throttle,
    audit,
    now,
    accessChanged,
  );
  const auth = new AuthService(
    db,
    secret,
    accounts,
    sessions,
    audit,
    throttle,
    twoFactor,
    principals,
    accessChanged,
    now,
  );
  const sessionControl = new SessionControlService(db, sessions, audit, accessChanged);
  const userSecurity = new UserSecurityService(
    db,
    hasher,
    accounts,
    roles,
    sessions,
    twoFactor,
    audit,
    accessChanged,
  );
  const configItems = new ConfigItemsService(db, audit, now);
  const configTransfer = new ConfigTransferService(db, audit, now, configItems);
  const botConfig = new BotConfigService(configItems);
  const checkedKeys = new PrincipalCache<ApiKeyPrincipal>(now, options.authCacheSeconds * 1000);
  invalidation.on('api-keys', () => checkedKeys.invalidate());
  const apiKeys = new ApiKeysService(db, audit, now, checkedKeys, () => invalidation.publish('api-keys'));
  const dashboardCache = new TtlCache(now, DASHBOARD_CACHE_TTL_MS);
  invalidation.on('telemetry', () => dashboardCache.clear());
  const historyCache = new TtlCache(now, HISTORY_CACHE_TTL_MS, HISTORY_CACHE_ENTRIES);
  invalidation.on('telemetry-history', () => historyCache.clear());
  /** After stored telemetry changed; `history` when the change may reach settled hours (settled-hours.ts). */
  const telemetryChanged = async (history = false) => {
    // History first: an answer computed between the two must not take up the settled part again.
    if (history) await invalidation.publish('telemetry-history');
    await invalidation.publish('telemetry');
  };
  const budgets = new BudgetsService(db, audit, now, options.telemetry, dashboardCache, telemetryChanged);
  const usage = new UsageReader(db, options.telemetry.timezone, now);
  invalidation.on('telemetry', () => usage.forget());
  const postgres = isPostgres(db);
  // The allowance's snapshots come from memory, kept in step with every write (usage-mirror.ts): on SQLite
  // always; on PostgreSQL while this instance is the only one on the database, with an ingest worker to load
  // them (it stores every batch, so it can tell of each).
  const mirror =
    !postgres || options.ingestDatabase
      ? new UsageMirror(options.telemetry.timezone, Boolean(options.ingestDatabase))
      : null;
  const ingestWriter = options.ingestDatabase
    ? new IngestWorker({ database: options.ingestDatabase, timezone: options.telemetry.timezone })
    : new InProcessIngest(db, options.telemetry.timezone, (sums) => mirror?.addUsage(sums, now()));
  // Through the ingest worker where there is one: on SQLite a write holds the event loop that answers the
  // checks, and the mirror hears of each part numbered with the worker's other writes.
  const limitEvents =
    ingestWriter instanceof IngestWorker
      ? new LimitEvents((part) => ingestWriter.storeLimitEvents(part))
      : LimitEvents.inProcess(db);
  const exact = exactGrants(db, limitEvents, now, () => usage.countsLetGo(), options.log);
  if (mirror) {
    usage.mirrorWith(mirror);
    // Made by the ingest worker in its thread, or in this one; until then checks read the database. On
    // PostgreSQL only while this instance counts in memory (alone), and let go of as soon as it stops.
    let loads = 0;
    // PostgreSQL: while this instance counts in memory and has seen no other's report since.
    let mirrored = !postgres;
    const letGo = () => {
      loads += 1;
      mirror.unload();
    };
    const load = () => {
      if (ingestWriter instanceof IngestWorker) {
        if (!mirrored) return;
        mirror.expect();
        // Only the last asked for is taken; one that failed is asked for again (a new worker starts) until
        // the server stops.
        const number = (loads += 1);
        ingestWriter.mirrorImage(now()).then(
          (image) => {
            if (number === loads && mirrored) mirror.adopt(image);
          },
          () => {
            if (number === loads && ingestWriter.open) setTimeout(load, MIRROR_RETRY_MS).unref();
          },
        );
      } else {
        mirror.loadSoon(db, now, () => limitEvents.storing || ingestWriter.storing);
      }
    };
    if (ingestWriter instanceof IngestWorker) {
      // Once the worker has stored the sums a stop left unwritten, and again at each later start of it (a
      // worker that ended may have written what it did not tell of).
      ingestWriter.onNews((news) => {
        if ('usage' in news) mirror.addUsage(news.usage, now(), news.number, news.calls);
        else if ('recovered' in news) load();
        else {
          // What it stored last may not have been told: held again from the next worker's start.
          letGo();
          if (ingestWriter.open) ingestWriter.start();
        }
      });
      exact.onWhere((where) => {
        mirrored = where === 'memory';
        if (mirrored) load();
        else letGo();
      });
      // Another instance stored reports before this one saw it arrive: they are not in the mirror, which is
      // let go of until this instance is alone again; or, if it still is a moment later (that instance left
      // before it was let in), loaded again then.
      if (postgres) {
        invalidation.on('telemetry', (fromElsewhere) => {
          if (!fromElsewhere || !mirrored) return;
          mirrored = false;
          letGo();
          setTimeout(() => {
            if (mirrored || exact.where !== 'memory' || !ingestWriter.open) return;
            mirrored = true;
            load();
          }, MIRROR_RETRY_MS).unref();
        });
      }
      ingestWriter.start();
    } else load();
    limitEvents.onPartStored((rows, number) => mirror.addGrants(rows, now(), number));
    // And at the start of each month, so that past months' chats and users are let go of.
    mirror.reloadWith(load);
  }
  const limits = new LimitsService(
    db,
    audit,
    now,
    usage,
    invalidation,
    options.telemetry.timezone,
    limitEvents,
  );
  const allowance = new AllowanceService(now, () => limits.book(), usage, limitEvents, exact);
  const ingestion = new IngestionService(ingestWriter, now, telemetryChanged);
  const otlp = new OtlpTraceService(ingestion, db, now);
  const telemetryStore = {
    retention: new TelemetryRetentionService(db, now, options.telemetry, telemetryChanged),
    housekeeping: new TelemetryHousekeepingService(db, now, telemetryChanged),
  };
  const metrics = new MetricsService(db, now, options.telemetry, dashboardCache, historyCache);
  const metricsReads = new MetricsReadService(db);
  const llmDimensions = new LlmDimensionsService(db, now, dashboardCache, historyCache);
  const llmCalls = new LlmCallsService(
    db,
    now,
    apiKeys,
    audit,
    Math.min(options.telemetry.contentRetentionDays, options.telemetry.retentionDays),
  );
  const latency = new LatencyService(db, now, options.telemetry, dashboardCache, historyCache);
  const changeMarkers = new ChangeMarkersService(now, audit);
  const metricsExport = new MetricsExportService(db, now, audit, options.telemetry.timezone);
  const integrations = new IntegrationReporter(ingestion, now, options.log);
  const messaging = createMessagingServices({
    db,
    audit,
    now,
    telegram: options.telegram,
    instanceId: options.instanceId,
    sender: options.sender,
    report: (call) => integrations.report('telegram', call),
    log: options.log,
  });
  const alerts = createAlertServices({
    db,
    audit,
    now,
    messaging,
    metrics: metricsReads,
    budgets,
    limits,
    timezone: options.telemetry.timezone,
    settings: options.alerts,
    log: options.log,
  });
  audit.resolveNamesWith('user', (ids) => users.currentNames(ids));
  audit.resolveNamesWith('config_item', (ids) => configItems.currentNames(ids));
  audit.resolveNamesWith('template', (ids) => messaging.templates.currentNames(ids));
  return {
    audit,
    roles,
    sessions,
    users,
    accounts,
    auth,
    twoFactor,
    sessionControl,
    userSecurity,
    configItems,
    configTransfer,
    botConfig,
    apiKeys,
    budgets,
    limits,
    allowance,
    ingestion,
    otlp,
    telemetryStore,
    metrics,
    metricsReads,
    llmDimensions,
    llmCalls,
    feedback: new FeedbackService(db, now),
    latency,
    changeMarkers,
    metricsExport,
    messaging,
    integrations,
    alerts,
  };
}
