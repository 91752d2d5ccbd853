import type { Allowance, AllowanceReason, AllowanceRequest } from '@lumi/contract';
import type { Clock } from '../../lib/time.js';
import { effectiveAmount, type AppliedLimit, type LimitBook } from './limit-book.js';
import { bucketNames } from './bucket-names.js';
import type { ExactGrant, ExactGrants } from './exact-grants.js';
import type { Denial, GrantKey, LimitEvents } from './limit-events.js';
import { secondsUntil } from './limit-windows.js';
import type { Standing, UsageReader } from './usage-reader.js';

/**
 * The decision a bot asks for before an LLM call (docs/operators/limits.md, "How a call is decided"): a
 * ban denies; an allowlist entry admits without limits; else every limit on the chat, the user and the
 * feature is read, a hard one used up denies, and an admitted call is counted at once, so parallel checks
 * never admit more than a request limit allows (exact-grants.ts). Denials, and calls admitted over a soft
 * limit, are recorded.
 */
export class AllowanceService {
  constructor(
    private readonly now: Clock,
    private readonly book: () => Promise<LimitBook>,
    private readonly usage: UsageReader,
    private readonly events: LimitEvents,
    /** The hard request limits' counts: in memory, or taken in the database (exact-grants.ts). */
    private readonly exact: ExactGrants,
  ) {
    usage.countWith(exact, events);
    // A snapshot read while a part of the grants was being stored may count that part twice.
    events.onPartStored((rows) => usage.forgetSubjects(rows));
  }

  /** Where the checks read usage from (UsageReader.source), for readiness (GET /api/ready). */
  get usageSource(): UsageReader['source'] {
    return this.usage.source;
  }

  /** Where the hard request limits' counts are kept (ExactGrants.where), for readiness (GET /api/ready). */
  get countsWhere(): ExactGrants['where'] {
    return this.exact.where;
  }

  /** Writes what the allowance counted in memory and, on PostgreSQL, leaves the database to the others. */
  close(): Promise<void> {
    return this.exact.close();
  }

  decide(request: AllowanceRequest): Promise<Allowance> {
    return this.exact.during((inDatabase) => this.decideNow(request, inDatabase));
  }

  /**
   * `inDatabase`: the hard request limits' counts are taken in the database, with a check's read where they
   * can be (takeAhead), rather than counted in memory (exact-grants.ts).
   */
  private async decideNow(request: AllowanceRequest, inDatabase: boolean): Promise<Allowance> {
    const now = this.now();
    const book = await this.book();
    const ban = this.ruleOf(book, request, now, 'ban');
    if (ban) {
      const retry = ban.expires_at === null ? null : secondsUntil(Date.parse(ban.expires_at), now);
      return this.deny(request, now, { reason: 'banned', limit: null, remaining: null, retry });
    }
    if (this.ruleOf(book, request, now, 'allow')) {
      return {
        allowed: true,
        reason: 'allowlisted',
        limit: null,
        remaining: null,
        retry_after_seconds: null,
      };
    }
    const applied = book.applicable(request);
    if (applied.length === 0) {
      return { allowed: true, reason: 'no_limits', limit: null, remaining: null, retry_after_seconds: null };
    }
    const ahead = inDatabase ? this.takeAhead(applied, now) : null;
    const standings = await this.usage.standings(applied, now);
    // The used-up hard limit named is one of cost or tokens before one of requests (a request limit may look
    // used up for a moment by counts other checks took ahead and give back, takeAhead, while cost and
    // tokens count what was stored), and of those the one whose window ends last: the denial's
    // retry_after_seconds is then the longest wait any of them asks for.
    const spent = standings
      .filter((s) => s.applied.limit.mode === 'hard' && s.used >= effectiveAmount(s.applied.limit, now))
      .reduce<Standing | undefined>((best, s) => (!best || denialOrder(s, best) < 0 ? s : best), undefined);
    if (ahead) {
      const full = await ahead.taking;
      if (full === null) this.taken(ahead.exact);
      if (spent) {
        // Denied all the same: what was taken goes back with the next write of the grants.
        if (full === null) for (const { key } of ahead.exact) this.events.grant(key, -1);
        return this.denyBy(request, now, spent);
      }
      if (full !== null) return this.denyBy(request, now, standings[ahead.exact[full]!.by]!);
      this.admit(ahead.grants);
    } else {
      if (spent) return this.denyBy(request, now, spent);
      const full = await this.grant(standings, now, inDatabase);
      if (full) return this.denyBy(request, now, full);
    }
    const over = standings.find((s) => s.used >= effectiveAmount(s.applied.limit, now));
    // Recorded beside the denials for the "limit reached" alert condition; not listed as a denial.
    if (over) this.events.deny(this.event(request, now, 'over_soft_limit', over.applied.limit.id));
    // The call just admitted counts for request limits; the answer names the limit with the least left.
    let tightest = afterCall(standings[0]!);
    for (const standing of standings) {
      const after = afterCall(standing);
      if (share(after, now) > share(tightest, now)) tightest = after;
    }
    return {
      allowed: true,
      reason: over ? 'over_soft_limit' : 'within_limits',
      limit: describe(tightest, now),
      remaining: remainingOf(tightest, now),
      retry_after_seconds: null,
    };
  }

  private event(
    request: AllowanceRequest,
    now: number,
    reason: AllowanceReason,
    limitId: number | null,
  ): Denial {
    return {
      at: now,
      chat_id: request.chat_id ?? null,
      user_id: request.user_id ?? null,
      feature: request.feature ?? null,
      reason,
      limit_id: limitId,
    };
  }

  private ruleOf(book: LimitBook, request: AllowanceRequest, now: number, action: 'ban' | 'allow') {
    const rules = [
      request.chat_id !== undefined ? book.rule('chat', request.chat_id, now) : null,
      request.user_id !== undefined ? book.rule('user', request.user_id, now) : null,
    ];
    return rules.find((rule) => rule?.action === action) ?? null;
  }

  /**
   * The grants that count an admitted call: in the current minute for minute request limits, in the current
   * hour for the rest (the in-flight estimate of cost and tokens reads the hour's grants too). A hard request
   * limit's bucket is counted exactly (exact-grants.ts): its count must stay below the limit's amount less
   * what its window used before the bucket (`before`); the rest are buffered (limit-events.ts). `items[i]`
   * is the check's i-th limit.
   */
  private grantsOf(items: { applied: AppliedLimit; before: number; granted: number }[], now: number) {
    // A check's few counters, each once: looked for one by one rather than by a key made for each.
    const grants: { key: GrantKey; exact: ExactGrant | null }[] = [];
    const add = (key: GrantKey, exact: Omit<ExactGrant, 'key'> | null) => {
      const at = grants.findIndex(({ key: known }) => sameCounter(known, key));
      const known = at < 0 ? undefined : grants[at]!;
      if (!known || (exact && (!known.exact || exact.below < known.exact.below))) {
        const grant = { key, exact: exact && { key, below: exact.below, seed: exact.seed, by: exact.by } };
        if (at < 0) grants.push(grant);
        else grants[at] = grant;
      }
    };
    const names = bucketNames(now);
    items.forEach(({ applied, before, granted }, by) => {
      const { limit, kind, subject } = applied;
      const exact =
        limit.metric === 'requests' && limit.mode === 'hard'
          ? { below: Math.floor(effectiveAmount(limit, now) - before), seed: granted, by }
          : null;
      const minute = limit.window === 'minute';
      if (minute) add({ kind, subject, grain: 'minute', bucket: names.minute }, exact);
      add({ kind, subject, grain: 'hour', bucket: names.hour }, minute ? null : exact);
    });
    const exact: ExactGrant[] = [];
    for (const grant of grants) if (grant.exact) exact.push(grant.exact);
    return { grants, exact };
  }

  /**
   * Counts the admitted call (`grantsOf`), the exact grants only while they have room, all or none;
   * resolves to the standing of a limit without room, else null.
   */
  private async grant(standings: Standing[], now: number, inDatabase: boolean): Promise<Standing | null> {
    const { grants, exact } = this.grantsOf(standings, now);
    if (exact.length > 0) {
      const full = await this.exact.take(exact);
      if (full !== null) return standings[full]!;
      if (inDatabase) this.taken(exact);
    }
    this.admit(grants);
    return null;
  }

  /** Counts the grants the database just took in the snapshots the usage reader keeps. */
  private taken(exact: ExactGrant[]) {
    for (const { key } of exact) this.usage.taken(key);
  }

  /**
   * Grants taken in the database, when no hard request limit of the check needs what its window used before the current bucket
   * (a minute's or an hour's window is its bucket): its exact grants taken in the statement that reads its
   * usage (usage-reader.ts, takeWithRead), so the check waits for one round trip to the database, not two.
   * A check then denied by another limit gives its grants back. Null where the grants wait for the read.
   */
  private takeAhead(applied: AppliedLimit[], now: number) {
    const inOneBucket = applied.every(
      ({ limit }) =>
        limit.metric !== 'requests' ||
        limit.mode !== 'hard' ||
        limit.window === 'minute' ||
        limit.window === 'hour',
    );
    if (!inOneBucket) return null;
    const { grants, exact } = this.grantsOf(
      applied.map((one) => ({ applied: one, before: 0, granted: 0 })),
      now,
    );
    const taking = exact.length > 0 ? this.usage.takeWithRead(exact, applied) : Promise.resolve(null);
    // Awaited once the read is in; a failure then is the check's.
    taking.catch(() => undefined);
    return { grants, exact, taking };
  }

  /**
   * Records an admitted call's buffered grants; until they are stored, the usage reader counts them from
   * there (limit-events.ts, pending).
   */
  private admit(grants: { key: GrantKey; exact: ExactGrant | null }[]) {
    for (const { key, exact } of grants) {
      if (!exact) this.events.grant(key);
    }
  }

  private denyBy(request: AllowanceRequest, now: number, standing: Standing): Promise<Allowance> {
    return this.deny(request, now, {
      reason: 'limit_reached',
      limit: describe(standing, now),
      remaining: 0,
      retry: secondsUntil(standing.span.end, now),
    });
  }

  private async deny(
    request: AllowanceRequest,
    now: number,
    decision: {
      reason: 'banned' | 'limit_reached';
      limit: Allowance['limit'];
      remaining: number | null;
      retry: number | null;
    },
  ): Promise<Allowance> {
    this.events.deny(this.event(request, now, decision.reason, decision.limit?.id ?? null));
    return {
      allowed: false,
      reason: decision.reason,
      limit: decision.limit,
      remaining: decision.remaining,
      retry_after_seconds: decision.retry,
    };
  }
}

type Used = Pick<Standing, 'applied' | 'used'>;

function sameCounter(a: GrantKey, b: GrantKey): boolean {
  return a.kind === b.kind && a.subject === b.subject && a.grain === b.grain && a.bucket === b.bucket;
}

/** A limit's usage once the call just admitted is counted: one more request. */
function afterCall({ applied, used }: Standing): Used {
  return { applied, used: applied.limit.metric === 'requests' ? used + 1 : used };
}

function share(standing: Used, now: number): number {
  return standing.used / effectiveAmount(standing.applied.limit, now);
}

function remainingOf(standing: Used, now: number): number {
  return rounded(Math.max(0, effectiveAmount(standing.applied.limit, now) - standing.used));
}

/** Usage as answers carry it: sums of dollars in binary floating point, rounded to a millionth. */
export function rounded(used: number): number {
  return Math.round(used * 1e6) / 1e6;
}

export function describe({ applied, used }: Used, now: number) {
  const { limit, subject } = applied;
  return {
    id: limit.id,
    scope: limit.scope,
    subject,
    metric: limit.metric,
    window: limit.window,
    mode: limit.mode,
    amount: effectiveAmount(limit, now),
    used: rounded(used),
  };
}

/** Which of two used-up limits a denial names first (see decide): cost or tokens, then the later end. */
function denialOrder(a: Standing, b: Standing): number {
  const requests = (s: Standing) => (s.applied.limit.metric === 'requests' ? 1 : 0);
  return requests(a) - requests(b) || b.span.end - a.span.end;
}
