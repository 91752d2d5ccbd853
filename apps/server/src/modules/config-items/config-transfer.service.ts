import {
  configItemInputSchema,
  type ConfigExport,
  type ConfigImportResult,
  type ConfigSnapshot,
  type FieldError,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { ValidationError } from '../../lib/errors.js';
import { Turns } from '../../lib/turns.js';
import { isoTime, type Clock } from '../../lib/time.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import { snapshotOf, type ConfigItemsService } from './config-items.service.js';

/** Export and import of a whole configuration domain as one JSON file (spec, Configuration). */
export class ConfigTransferService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: Clock,
    private readonly items: ConfigItemsService,
  ) {}

  async export(domainName: string): Promise<ConfigExport> {
    const domain = this.items.domain(domainName);
    const items = await this.items.list(domain);
    return { domain, exported_at: isoTime(this.now()), items: items.map(snapshotOf) };
  }

  /**
   * Validates every item first and applies all or nothing: an item whose name exists is updated (a new
   * revision), any other is created. Problems come back per item as `items.<index>.<field>`. A long
   * import works in turns (Turns), so the server answers others meanwhile.
   */
  async import(actor: Actor, domainName: string, raw: unknown[]): Promise<ConfigImportResult> {
    const domain = this.items.domain(domainName);
    const errors: FieldError[] = [];
    const parsed: ConfigSnapshot[] = [];
    const seen = new Map<string, number>();
    const turns = new Turns();
    for (const [index, entry] of raw.entries()) {
      await turns.next();
      const result = configItemInputSchema.safeParse(entry);
      if (!result.success) {
        for (const issue of result.error.issues) {
          errors.push({ path: ['items', index, ...issue.path].join('.'), message: issue.message });
        }
        continue;
      }
      const key = result.data.name.toLowerCase();
      const first = seen.get(key);
      if (first !== undefined) {
        errors.push({
          path: `items.${index}.name`,
          message: `The name '${result.data.name}' is also used by item ${first}`,
        });
      }
      seen.set(key, index);
      parsed.push(snapshotOf(result.data));
    }
    if (errors.length > 0) {
      throw new ValidationError(
        errors,
        `${errors.length} problem${errors.length === 1 ? '' : 's'} in the import; nothing was changed`,
      );
    }

    return this.db.transaction().execute(async (trx) => {
      const counts = { created: 0, updated: 0, unchanged: 0 };
      for (const snapshot of parsed) {
        await turns.next();
        counts[await this.items.upsertByName(trx, actor, domain, snapshot)] += 1;
      }
      const { created, updated } = counts;
      await this.audit.record(trx, actor, {
        action: 'config.imported',
        resourceType: 'config_item',
        newValue: { domain, created, updated },
      });
      return { created, updated };
    });
  }
}
