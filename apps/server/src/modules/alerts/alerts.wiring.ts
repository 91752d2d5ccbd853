import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/time.js';
import type { AuditService } from '../audit/audit.service.js';
import type { LimitsService } from '../limits/limits.service.js';
import type { BudgetsService } from '../budgets/budgets.service.js';
import type { MessagingServices } from '../messaging/messaging.wiring.js';
import type { MetricsReadService } from '../metrics/metrics-read.service.js';
import type { AlertSources } from './alert-data.js';
import { AlertEvaluator } from './alert-evaluator.js';
import { AlertHistoryService } from './alert-history.service.js';
import { AlertNotifier, WEBHOOK_DEFAULTS, type WebhookSettings } from './alert-notifier.js';
import { AlertRulesService } from './alert-rules.service.js';
import { AlertTemplates } from './alert-templates.js';
import * as contactPointsRepo from './storage/contact-points.repository.js';
import { ContactPointsService } from './contact-points.service.js';
import { SilencesService } from './silences.service.js';

export interface AlertServices {
  rules: AlertRulesService;
  contactPoints: ContactPointsService;
  silences: SilencesService;
  history: AlertHistoryService;
  /** The evaluation pass; the `alerts` job (src/jobs.ts) runs it. */
  evaluator: AlertEvaluator;
  /** Tries due notifications (webhook retries); the `alert-notifications` job runs it. */
  notifier: AlertNotifier;
  /** The default `alert` template, made at start-up when a channel exists. */
  templates: AlertTemplates;
}

/** What alerting needs from the configuration. */
export interface AlertSettings {
  /** LUMI_PUBLIC_URL: the console's base URL, for links in alerts. */
  publicUrl: string;
  /** Webhook timeouts and retries; the defaults otherwise (tests shorten them). */
  webhook?: Partial<WebhookSettings>;
}

interface Logger {
  warn(details: object, message: string): void;
}

/** The alerting services (docs/bot-developers/alerts.md), wired once. */
export function createAlertServices(options: {
  db: Kysely<Database>;
  audit: AuditService;
  now: Clock;
  messaging: MessagingServices;
  /** The stored telemetry's figures, as the conditions read them. */
  metrics: MetricsReadService;
  /** The token budgets (a "budget usage" condition). */
  budgets: BudgetsService;
  /** The limits (the "limit reached" and "spend far above its usual" conditions). */
  limits: LimitsService;
  /** LUMI_TIMEZONE. */
  timezone: string;
  settings: AlertSettings;
  log: Logger;
}): AlertServices {
  const { db, audit, now, messaging, timezone, log } = options;
  const notifier = new AlertNotifier(db, now, messaging.deliveries, options.settings.publicUrl, log, {
    ...WEBHOOK_DEFAULTS,
    ...options.settings.webhook,
  });
  const templates = new AlertTemplates(db, messaging.templates, messaging.channels);
  const silences = new SilencesService(db, audit, now);
  // The conditions read each figure from the module that owns it, never its tables.
  const sources: AlertSources = {
    metrics: options.metrics,
    budgets: options.budgets,
    deliveries: messaging.deliveries,
    limits: options.limits,
  };
  const rules = new AlertRulesService(db, audit, now, silences, sources, timezone);
  const contactPoints = new ContactPointsService(
    db,
    audit,
    now,
    messaging.channels,
    messaging.templates,
    templates,
    notifier,
  );
  const history = new AlertHistoryService(db, now);
  messaging.channels.usedBy(async (trx, column, id) => ({
    kind: 'contact point',
    names: await contactPointsRepo.contactPointNamesUsing(trx, column, id),
  }));
  const evaluator = new AlertEvaluator(db, now, silences, notifier, sources, timezone, log);
  return { rules, contactPoints, silences, history, evaluator, notifier, templates };
}
