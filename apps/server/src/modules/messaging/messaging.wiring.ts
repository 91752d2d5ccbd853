import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/time.js';
import type { AuditService } from '../audit/audit.service.js';
import { ChannelsService } from './channels/channels.service.js';
import { DeliveriesService } from './deliveries/deliveries.service.js';
import { DeliverySender } from './deliveries/delivery-sender.js';
import { SENDER_DEFAULTS, type SenderSettings, type SendReport } from './deliveries/sender-settings.js';
import { RenderingService } from './rendering/rendering.service.js';
import { TemplateGuard } from './rendering/template-guard.js';
import { SchedulesService } from './schedules/schedules.service.js';
import { TelegramClient, type TelegramSettings } from './telegram/telegram-client.js';
import { TestSendsService } from './telegram/test-sends.service.js';
import { TemplatesService } from './templates/templates.service.js';
import { VariablesService } from './variables/variables.service.js';

export interface MessagingServices {
  channels: ChannelsService;
  templates: TemplatesService;
  variables: VariablesService;
  rendering: RenderingService;
  testSends: TestSendsService;
  deliveries: DeliveriesService;
  /** Schedules; the scheduler job (src/jobs.ts) sends their runs. */
  schedules: SchedulesService;
  /** Sends the queued deliveries; server.ts starts it (every instance runs one). */
  sender: DeliverySender;
}

interface Logger {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/**
 * The messaging area's services (docs/bot-developers/deliveries.md), wired once; `telegram` comes from the
 * configuration.
 */
export function createMessagingServices(options: {
  db: Kysely<Database>;
  audit: AuditService;
  now: Clock;
  telegram?: TelegramSettings;
  /** This instance's name, as delivery leases and attempts record it. */
  instanceId: string;
  sender?: Partial<SenderSettings>;
  /** Each send to Telegram, for the integrations panel. */
  report: SendReport;
  log: Logger;
}): MessagingServices {
  const { db, audit, now } = options;
  const channels = new ChannelsService(db, audit, now);
  const variables = new VariablesService(db, audit, now);
  const templates = new TemplatesService(db, audit, now, channels, new TemplateGuard(variables, now));
  const rendering = new RenderingService(templates, now);
  const telegram = new TelegramClient(options.telegram);
  const testSends = new TestSendsService(db, audit, now, templates, channels, rendering, telegram);
  // The sender meets a 429 itself (it pauses the whole bot), so its client never waits and retries.
  const sender = new DeliverySender(
    db,
    now,
    options.instanceId,
    new TelegramClient({ ...options.telegram, maxAttempts: 1 }),
    channels,
    options.report,
    options.log,
    { ...SENDER_DEFAULTS, ...options.sender },
  );
  const deliveries = new DeliveriesService(db, audit, now, templates, channels, rendering, () =>
    sender.wake(),
  );
  const schedules = new SchedulesService(db, audit, now, templates, channels, deliveries);
  return { channels, templates, variables, rendering, testSends, deliveries, schedules, sender };
}
