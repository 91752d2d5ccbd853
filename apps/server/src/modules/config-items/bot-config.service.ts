import { createHash } from 'node:crypto';
import { CONFIG_DOMAINS, type BotConfig, type ConfigDomain } from '@lumi/contract';
import type { ConfigItemsService } from './config-items.service.js';

/** What the bot reads (`GET /api/bot/config`): its active configuration and a version to poll cheaply. */
export class BotConfigService {
  constructor(private readonly items: ConfigItemsService) {}

  /** Every active item grouped by domain, highest priority first, with a version that changes with them. */
  async current(): Promise<{ etag: string; body: BotConfig }> {
    const domains = Object.fromEntries(
      CONFIG_DOMAINS.map((d) => [d, [] as BotConfig['domains'][ConfigDomain]]),
    ) as BotConfig['domains'];
    for (const item of await this.items.listActive()) {
      const { id, name, description, content, tags, priority, version } = item;
      domains[item.domain].push({ id, name, description, content, tags, priority, version });
    }
    const etag = createHash('sha256').update(JSON.stringify(domains)).digest('base64url').slice(0, 27);
    return { etag, body: { version: etag, domains } };
  }
}
