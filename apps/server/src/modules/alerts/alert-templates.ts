import { DEFAULT_ALERT_TEMPLATE_NAME } from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { whileLocked } from '../../db/locks.js';
import { ConflictError, ValidationError } from '../../lib/errors.js';
import type { Actor } from '../audit/audit.service.js';
import type { ChannelsService } from '../messaging/channels/channels.service.js';
import type { TemplatesService } from '../messaging/templates/templates.service.js';

/**
 * The default `alert` template (docs/bot-developers/alerts.md, "Contact points"): HTML, short, with the alert
 * variables of the catalogue (variables.seed.ts). Every value is escaped where it lands by the renderer, so a
 * rule named `<b>` or `&` arrives as written, and a name is at most 200 characters, far within Telegram's
 * 4,096.
 */
export const ALERT_TEMPLATE_CONTENT = [
  '<b>{{uppercase alert_kind}} · {{uppercase alert_severity}}</b>',
  '<b>{{alert_rule_name}}</b>',
  '{{alert_summary}}',
  'State: {{alert_state}} · started {{default (formatTimeAgo alert_started_at) "just now"}}',
  '<a href="{{alert_url}}">Open in Lumi</a>',
].join('\n');

/** Start-up seeding and the first Telegram contact point act as the system. */
const SYSTEM: Actor = { id: null, username: null, ip: null, userAgent: 'lumi alerts' };

/** Makes the `alert` template when none of that name exists. */
export class AlertTemplates {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly templates: TemplatesService,
    private readonly channels: ChannelsService,
  ) {}

  /** At start-up: on the first channel, when there is one. */
  async seed(): Promise<void> {
    const first = (await this.channels.list()).sort((a, b) => a.id - b.id)[0];
    if (first) await this.ensure(first.id);
  }

  /**
   * On `channelId`, unless a template named `alert` exists. Contact points made at once (on several
   * instances) take turns, so one of them makes it and the others find it.
   */
  async ensure(channelId: number): Promise<void> {
    if (await this.exists()) return;
    await whileLocked(this.db, 'lumi:alert-template', async () => {
      if (await this.exists()) return;
      await this.createAlertTemplate(channelId);
    });
  }

  /** Another caller may have made it meanwhile (SQLite runs callers side by side): then it is there. */
  private async createAlertTemplate(channelId: number): Promise<void> {
    try {
      await this.templates.create(SYSTEM, {
        template_name: DEFAULT_ALERT_TEMPLATE_NAME,
        channel_id: channelId,
        topic_id: null,
        template_content: ALERT_TEMPLATE_CONTENT,
        message_type: 'alert',
        parse_mode: 'HTML',
        split_long_messages: false,
        disable_web_preview: true,
        disable_notification: false,
        allow_pinning: false,
        pin_by_default: false,
        enabled: true,
        description:
          'Alert notifications; edit it freely: the alert variables are in the variables catalogue',
      });
    } catch (error) {
      if (!(error instanceof ConflictError) || !(await this.exists())) throw error;
    }
  }

  private async exists(): Promise<boolean> {
    try {
      await this.templates.requireForField({ name: DEFAULT_ALERT_TEMPLATE_NAME });
      return true;
    } catch (error) {
      if (error instanceof ValidationError) return false;
      throw error;
    }
  }
}
