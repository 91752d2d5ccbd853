import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { LimitDenialsTable, UsageGrain, UsageKind } from '../../db/limit-tables.js';
import { addGrants, insertDenials } from './limit-grants.repository.js';

export interface GrantKey {
  kind: UsageKind;
  subject: string;
  grain: UsageGrain;
  bucket: string;
}
export type DenialRow = Omit<Insertable<LimitDenialsTable>, 'id'>;

/** How often what the allowance counted is written (docs/operators/limits.md, "What counts"). */
export const LIMIT_EVENTS_FLUSH_MS = 1_000;

/**
 * What the allowance records without making a check wait for the database: the calls it admitted that no
 * request limit conditions (they feed the estimate of calls in flight) and the denials. They are written
 * together every LIMIT_EVENTS_FLUSH_MS, at shutdown, and before anything that lists them is read on this
 * instance; a process killed outright loses at most that second of them. A request limit's grants are not
 * buffered: they are conditioned in the database as they are made (allowance.service.ts).
 */
export class LimitEvents {
  private grants = new Map<string, GrantKey & { granted: number }>();
  private denials: DenialRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly flushMs = LIMIT_EVENTS_FLUSH_MS,
  ) {}

  grant(key: GrantKey): void {
    const id = `${key.kind}|${key.subject}|${key.grain}|${key.bucket}`;
    const known = this.grants.get(id);
    if (known) known.granted += 1;
    else this.grants.set(id, { ...key, granted: 1 });
    this.schedule();
  }

  deny(row: DenialRow): void {
    this.denials.push(row);
    this.schedule();
  }

  /** Writes what is buffered; resolves once it, and any write before it, is stored. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const grants = [...this.grants.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
    const denials = this.denials;
    this.grants = new Map();
    this.denials = [];
    this.writing = this.writing
      .catch(() => undefined)
      .then(async () => {
        if (grants.length === 0 && denials.length === 0) return;
        await this.db.transaction().execute(async (trx) => {
          await addGrants(trx, grants);
          await insertDenials(trx, denials);
        });
      });
    return this.writing;
  }

  private schedule() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      // A failed write is retried with the next flush: its rows go back into the buffer.
      const grants = [...this.grants.values()];
      const denials = [...this.denials];
      this.flush().catch(() => {
        for (const row of grants) {
          for (let i = 0; i < row.granted; i++) this.grant(row);
        }
        for (const row of denials) this.deny(row);
      });
    }, this.flushMs);
    this.timer.unref();
  }
}
