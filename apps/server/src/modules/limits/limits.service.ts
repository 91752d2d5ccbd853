import {
  LIMIT_MESSAGES,
  LIMITS_LIMITS,
  type AccessRule,
  type AccessRuleListQuery,
  type AccessRuleListResponse,
  type AccessRuleValues,
  type BotLimitsSnapshot,
  type BotUsageRequest,
  type BotUsageResponse,
  type Limit,
  type LimitDenialsQuery,
  type LimitDenialsResponse,
  type LimitListQuery,
  type LimitListResponse,
  type LimitPreview,
  type LimitValues,
  type SubjectLimits,
} from '@lumi/contract';
import type { Kysely, Transaction } from 'kysely';
import { AuditedEntity } from '../../db/audited-entity.js';
import type { Database, Executor } from '../../db/database.js';
import { lockForTransaction } from '../../db/locks.js';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { DAY_MS, hourKey } from '../../lib/hour-buckets.js';
import { isoTime, type Clock } from '../../lib/time.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { Invalidation } from '../cluster/invalidation.js';
import { describe } from './allowance.service.js';
import {
  effectiveAmount,
  LimitBook,
  ruleActive,
  type AccessRuleRow,
  type AppliedLimit,
  type LimitRow,
} from './limit-book.js';
import { LIMIT_USAGE_KEEP_DAYS } from '../telemetry-store/telemetry-store.js';
import { pruneGrants } from './limit-grants.repository.js';
import { limitUsage, usageOf } from './limit-usage-view.js';
import { topSpenders, type Spender } from './spend-spikes.js';
import { windowSpan } from './limit-windows.js';
import * as repo from './limits.repository.js';
import type { LimitEvents } from './limit-events.js';
import type { UsageReader } from './usage-reader.js';

/** How many subjects a limit on each chat or user shows as its top users, and a preview lists. */
const TOP_SHOWN = 5;
const PREVIEW_SCAN = 200;
const PREVIEW_SHOWN = 20;
const NEAR_SHARE = 0.8;

/**
 * Limits, bans and allowlists (docs/operators/limits.md): changed by operators with limits:write, every
 * change audited; read by the allowance from an in-memory book that every instance reloads when any of
 * them changes (the `limits` invalidation topic).
 */
export class LimitsService {
  private readonly limits: AuditedEntity<Limit>;
  private readonly rules: AuditedEntity<AccessRule>;
  private loading: Promise<LimitBook> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    audit: AuditService,
    private readonly now: Clock,
    private readonly usage: UsageReader,
    private readonly invalidation: Invalidation,
    private readonly timezone: string,
    private readonly events: LimitEvents,
  ) {
    this.limits = new AuditedEntity(audit, {
      load: (db, id) => this.load(db, id),
      delete: repo.deleteLimit,
      resourceType: 'limit',
      action: 'limit',
      name: (limit) => nameOf(limit),
    });
    this.rules = new AuditedEntity(audit, {
      load: (db, id) => this.loadRule(db, id),
      delete: repo.deleteRule,
      resourceType: 'access_rule',
      action: 'access_rule',
      name: (rule) => `${rule.action === 'ban' ? 'Ban' : 'Allow'} ${rule.subject_kind} ${rule.subject}`,
    });
    invalidation.on('limits', () => {
      this.loading = null;
    });
  }

  /** Every limit and rule, indexed; loaded once per change. */
  book(): Promise<LimitBook> {
    if (!this.loading) {
      const loading = Promise.all([repo.listLimitRows(this.db), repo.listRuleRows(this.db)]).then(
        ([limits, rules]) => new LimitBook(limits, rules),
      );
      loading.catch(() => {
        if (this.loading === loading) this.loading = null;
      });
      this.loading = loading;
    }
    return this.loading;
  }

  /**
   * A page of the limits with their usage now: each limit's usage is a read of its subjects, so a page is
   * what one request reads (the checks asked for meanwhile wait for a page's reads at most).
   */
  async list(query: LimitListQuery): Promise<LimitListResponse> {
    await this.events.flush();
    const now = this.now();
    const [rows, total] = await Promise.all([
      repo.rowsPage(this.db, 'limits', query),
      repo.countRows(this.db, 'limits'),
    ]);
    const page = rows.slice(0, query.limit);
    const denials = await repo.denialCounts(
      this.db,
      isoTime(now - DAY_MS),
      page.map((row) => row.id),
    );
    return {
      limits: await Promise.all(page.map((row) => this.toLimit(this.db, row, now, denials.get(row.id) ?? 0))),
      next_cursor: rows.length > query.limit ? page.at(-1)!.id : null,
      total,
    };
  }

  get(id: number): Promise<Limit> {
    return this.load(this.db, id);
  }

  async create(actor: Actor, values: LimitValues): Promise<Limit> {
    this.check(values);
    const created = await this.db.transaction().execute(async (trx) => {
      await belowCap(trx, 'limits', LIMITS_LIMITS.limitsMax, 'limits');
      return this.limits.create(trx, actor, () =>
        repo.insertLimit(trx, values, { at: isoTime(this.now()), username: actor.username }),
      );
    });
    await this.changed();
    return created;
  }

  async update(actor: Actor, id: number, values: LimitValues): Promise<Limit> {
    // A raise that has ended may be sent back as it was read (to change the note, say); a new one must end
    // in the future.
    const stored = await repo.findLimitRow(this.db, id);
    const sameRaise =
      stored?.raise_until != null &&
      values.raise_until !== null &&
      Date.parse(stored.raise_until) === Date.parse(values.raise_until) &&
      stored.raise_amount === values.raise_amount;
    this.check(values, !sameRaise);
    const updated = await this.db.transaction().execute(async (trx) => {
      // Two edits moving two limits onto each other's subjects would each wait for the other's row in
      // the unique key on PostgreSQL (a deadlock); taking turns with the creates, one of them gets the 409.
      await lockTable(trx, 'limits');
      return this.limits.update(trx, actor, id, () =>
        repo.updateLimit(trx, id, values, { at: isoTime(this.now()), username: actor.username }),
      );
    });
    await this.changed();
    return updated;
  }

  async remove(actor: Actor, id: number): Promise<void> {
    await this.db.transaction().execute((trx) => this.limits.remove(trx, actor, id));
    await this.changed();
  }

  /** Who is over, or near, a limit being written, in its current window. */
  async preview(values: LimitValues): Promise<LimitPreview> {
    this.check(values, false);
    const now = this.now();
    const row: LimitRow = {
      id: 0,
      ...values,
      subject: values.subject ?? '',
      created_at: '',
      created_by: null,
      updated_at: '',
      updated_by: null,
    };
    const amount = effectiveAmount(row, now);
    const span = windowSpan(values.window, now, this.timezone);
    const usages = await limitUsage(this.db, this.usage, this.timezone, row, now, PREVIEW_SCAN);
    const sorted = usages.sort((a, b) => b.used - a.used);
    return {
      over: sorted.filter((u) => u.used >= amount).slice(0, PREVIEW_SHOWN),
      near: sorted.filter((u) => u.used < amount && u.used >= amount * NEAR_SHARE).slice(0, PREVIEW_SHOWN),
      window_start: isoTime(span.start),
      window_end: isoTime(span.end),
    };
  }

  async listRules(query: AccessRuleListQuery): Promise<AccessRuleListResponse> {
    const now = this.now();
    const [rows, total] = await Promise.all([
      repo.rowsPage(this.db, 'access_rules', query),
      repo.countRows(this.db, 'access_rules'),
    ]);
    const page = rows.slice(0, query.limit);
    return {
      rules: page.map((row) => toRule(row, now)),
      next_cursor: rows.length > query.limit ? page.at(-1)!.id : null,
      total,
    };
  }

  async createRule(actor: Actor, values: AccessRuleValues): Promise<AccessRule> {
    if (values.expires_at !== null && Date.parse(values.expires_at) <= this.now()) {
      throw ValidationError.field('expires_at', LIMIT_MESSAGES.expiryPassed);
    }
    const created = await this.db.transaction().execute(async (trx) => {
      await lockTable(trx, 'access_rules');
      // An expired entry decides nothing (docs/operators/limits.md, "Bans and allowlists"): the new one
      // replaces it, and the audit log shows both.
      const known = await repo.ruleOfSubject(trx, values);
      if (known && !ruleActive(known, this.now())) await this.rules.remove(trx, actor, known.id);
      await belowCap(trx, 'access_rules', LIMITS_LIMITS.rulesMax, 'bans and allowlist entries');
      return this.rules.create(trx, actor, () =>
        repo.insertRule(trx, values, { at: isoTime(this.now()), username: actor.username }),
      );
    });
    await this.changed();
    return created;
  }

  async removeRule(actor: Actor, id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockTable(trx, 'access_rules');
      await this.rules.remove(trx, actor, id);
    });
    await this.changed();
  }

  async denials(query: LimitDenialsQuery): Promise<LimitDenialsResponse> {
    await this.events.flush();
    const [rows, total] = await Promise.all([
      repo.denialsPage(this.db, query),
      repo.countDenials(this.db, isoTime(this.now() - DAY_MS), query),
    ]);
    const page = rows.slice(0, query.limit);
    return {
      denials: page,
      next_cursor: rows.length > query.limit ? page.at(-1)!.id : null,
      total_24h: total,
    };
  }

  /** A chat's or user's ban or allowlist entry and every limit on it, with its usage now. */
  async subject(kind: 'chat' | 'user', subject: string): Promise<SubjectLimits> {
    const now = this.now();
    const book = await this.book();
    const standings = await this.usage.standings(book.limitsOf(kind, subject), now);
    const rule = book.rule(kind, subject, now);
    return {
      kind,
      subject,
      rule: rule ? toRule(rule, now) : null,
      limits: standings.map((s) => ({ ...describe(s, now), window_end: isoTime(s.span.end) })),
    };
  }

  /** What the bot SDK keeps a copy of (docs/bot-developers/limits.md). */
  async snapshot(): Promise<BotLimitsSnapshot> {
    const now = this.now();
    const book = await this.book();
    return {
      limits: book.limits.map((limit) => {
        const raised = effectiveAmount(limit, now) !== limit.amount;
        return {
          id: limit.id,
          scope: limit.scope,
          subject: limit.subject === '' ? null : limit.subject,
          metric: limit.metric,
          window: limit.window,
          mode: limit.mode,
          amount: effectiveAmount(limit, now),
          amount_until: raised ? limit.raise_until : null,
        };
      }),
      rules: book.activeRules(now).map((rule) => ({
        action: rule.action,
        subject_kind: rule.subject_kind,
        subject: rule.subject,
        expires_at: rule.expires_at,
      })),
      timezone: this.timezone,
      server_time: isoTime(now),
    };
  }

  /** Each limit on the subjects asked about, with its usage now, for the SDK's copy. */
  async botUsage(request: BotUsageRequest): Promise<BotUsageResponse> {
    const now = this.now();
    const book = await this.book();
    const applied: AppliedLimit[] = [
      ...(request.chat_ids ?? []).flatMap((id) => book.limitsOf('chat', id)),
      ...(request.user_ids ?? []).flatMap((id) => book.limitsOf('user', id)),
      ...(request.features ?? []).flatMap((name) => book.limitsOf('feature', name)),
    ];
    const standings = await this.usage.standings(applied, now);
    return {
      usage: standings.map((s) => ({
        limit_id: s.applied.limit.id,
        ...usageOf(s.applied.subject, s.used, effectiveAmount(s.applied.limit, now), s.span),
      })),
      server_time: isoTime(now),
    };
  }

  /** Calls that reached a limit since `from` (the "limit reached" alert condition). */
  async reachedSince(from: string, limitId: number | null): Promise<number> {
    await this.events.flush();
    return repo.countReached(this.db, from, limitId);
  }

  /** Writes what the allowance buffered (at shutdown). */
  close(): Promise<void> {
    return this.events.flush();
  }

  /** The top spenders of the current and previous hour, each with its usual (spend-spikes.ts). */
  spenders(now: number): Promise<Spender[]> {
    return topSpenders(this.db, now);
  }

  /** The retention job: grants and denials older than the longest window (and a day) go. */
  prune(): Promise<number> {
    return pruneGrants(this.db, hourKey(this.now() - LIMIT_USAGE_KEEP_DAYS * DAY_MS));
  }

  private async changed() {
    await this.invalidation.publish('limits');
  }

  /** Rules the schema cannot see: what the usage can count, and a raise still to come. */
  private check(values: LimitValues, refusePast = true) {
    if (values.scope === 'feature' && values.window === 'minute' && values.metric !== 'requests') {
      throw ValidationError.field(
        'window',
        'A feature’s limit over a minute counts requests; use an hour or longer for its cost and tokens',
      );
    }
    if (refusePast && values.raise_until !== null && Date.parse(values.raise_until) <= this.now()) {
      throw ValidationError.field('raise_until', LIMIT_MESSAGES.raiseEnded);
    }
  }

  private async load(db: Executor, id: number): Promise<Limit> {
    const row = await repo.findLimitRow(db, id);
    if (!row) throw new NotFoundError(`There is no limit ${id}`);
    const now = this.now();
    const denials = await repo.denialCounts(db, isoTime(now - DAY_MS), [id]);
    return this.toLimit(db, row, now, denials.get(id) ?? 0);
  }

  private async loadRule(db: Executor, id: number): Promise<AccessRule> {
    const row = await repo.findRuleRow(db, id);
    if (!row) throw new NotFoundError(`There is no ban or allowlist entry ${id}`);
    return toRule(row, this.now());
  }

  private async toLimit(db: Executor, row: LimitRow, now: number, denials: number): Promise<Limit> {
    return {
      ...row,
      subject: row.subject === '' ? null : row.subject,
      effective_amount: effectiveAmount(row, now),
      usage: await limitUsage(db, this.usage, this.timezone, row, now, TOP_SHOWN),
      denials_24h: denials,
    };
  }
}

function toRule(row: AccessRuleRow, now: number): AccessRule {
  return { ...row, active: ruleActive(row, now) };
}

function nameOf(limit: Pick<Limit, 'scope' | 'subject' | 'metric' | 'window'>): string {
  const who = limit.subject === null ? limit.scope.replace('_', ' ') : `${limit.scope} ${limit.subject}`;
  return `${who}: ${limit.metric} per ${limit.window}`;
}

/**
 * Has the writes of `table` that take it in their transaction take turns, on one instance or several: the
 * creates counting it (belowCap), the edits of limits (update), and the creates and deletes of bans and
 * allowlist entries, so that one replacing an expired entry (createRule) and a delete of it never both
 * find it.
 */
const lockTable = (trx: Transaction<Database>, table: 'limits' | 'access_rules') =>
  lockForTransaction(trx, [`lumi:${table}:count`]);

/**
 * Refuses a new row of `table` once it holds `cap` (every instance keeps them all in memory, LIMITS_LIMITS).
 * The count and the insert after it take turns with other creates (lockTable), so parallel creates
 * on several instances cannot pass the cap together.
 */
async function belowCap(
  trx: Transaction<Database>,
  table: 'limits' | 'access_rules',
  cap: number,
  what: string,
) {
  await lockTable(trx, table);
  if ((await repo.countRows(trx, table)) >= cap) {
    throw new ConflictError(`Lumi keeps at most ${cap.toLocaleString('en-US')} ${what}; delete some first`);
  }
}
