import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/time.js';
import type { AuditService } from '../audit/audit.service.js';
import { ChannelsService } from './channels/channels.service.js';
import { RenderingService } from './rendering/rendering.service.js';
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
}

/** The messaging area's services (issue 5), wired once; `telegram` comes from the configuration. */
export function createMessagingServices(options: {
  db: Kysely<Database>;
  audit: AuditService;
  telegram?: TelegramSettings;
  /** The clock of formatTimeAgo. */
  now?: Clock;
}): MessagingServices {
  const { db, audit } = options;
  const channels = new ChannelsService(db, audit);
  const templates = new TemplatesService(db, audit, channels);
  const variables = new VariablesService(db, audit);
  const rendering = new RenderingService(templates, options.now);
  const telegram = new TelegramClient(options.telegram);
  const testSends = new TestSendsService(db, audit, templates, channels, rendering, telegram);
  return { channels, templates, variables, rendering, testSends };
}
