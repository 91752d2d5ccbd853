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
  now: Clock;
  telegram?: TelegramSettings;
}): MessagingServices {
  const { db, audit, now } = options;
  const channels = new ChannelsService(db, audit, now);
  const templates = new TemplatesService(db, audit, now, channels);
  const variables = new VariablesService(db, audit, now);
  const rendering = new RenderingService(templates, now);
  const telegram = new TelegramClient(options.telegram);
  const testSends = new TestSendsService(db, audit, now, templates, channels, rendering, telegram);
  return { channels, templates, variables, rendering, testSends };
}
