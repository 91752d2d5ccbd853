import type {
  BudgetStatus,
  ModelPrice,
  ModelPriceInput,
  TokenBudget,
  TokenBudgetValues,
} from '@lumi/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import { DAY_MS, hourKey } from '../../lib/hour-buckets.js';
import { budgetUsagePercentage, roundTo } from '../../lib/llm-cost.js';
import { isoTime, type Clock } from '../../lib/time.js';
import type { Cached, TtlCache } from '../../lib/ttl-cache.js';
import { addDays, firstHourOfLocalDate, localDate } from '../../lib/zoned-days.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import { modelsSeen, usageByProvider } from '../telemetry-store/telemetry-store.js';
import type { TelemetrySettings } from '../telemetry-store/telemetry.settings.js';
import * as repo from './budgets.repository.js';
import { priceNames } from './call-pricing.js';
import { CATALOGUE_NAME, catalogueEntry } from './price-catalogue.js';

type Usage = { tokens: number; cost: number };

function toBudget(row: repo.BudgetRow, usage: Usage = { tokens: 0, cost: 0 }): TokenBudget {
  const limits = {
    tokens: row.daily_token_limit === null ? null : Number(row.daily_token_limit),
    cost: row.daily_cost_limit,
  };
  return {
    provider: row.provider,
    daily_token_limit: limits.tokens,
    daily_cost_limit: limits.cost,
    current_usage: {
      tokens_used: usage.tokens,
      cost_incurred: roundTo(usage.cost, 6),
      usage_percentage: budgetUsagePercentage(limits, usage),
    },
    is_active: row.is_active === 1,
    updated_at: row.updated_at,
    updated_by: row.updated_by,
  };
}

function auditedValues(budget: TokenBudget) {
  const { provider, daily_token_limit, daily_cost_limit, is_active } = budget;
  return { provider, daily_token_limit, daily_cost_limit, is_active };
}

/** The models seen in calls over this many days are listed with their catalogue prices. */
const SEEN_DAYS = 30;

function operatorPrice(row: repo.PriceRow, unpriced = 0): ModelPrice {
  return {
    ...row,
    source: 'operator',
    catalogue: null,
    cache_read_usd_per_million: null,
    unpriced_requests: unpriced,
  };
}

/** A model seen in calls that has no operator price: the catalogue's price, or none. */
function seenModelPrice(seen: { provider: string; model: string; unpriced: number }): ModelPrice {
  const entry = catalogueEntry(seen.provider, seen.model);
  return {
    model: seen.model,
    input_usd_per_million: entry?.input_usd_per_million ?? 0,
    output_usd_per_million: entry?.output_usd_per_million ?? 0,
    cache_read_usd_per_million: entry?.cache_read_usd_per_million ?? null,
    source: entry ? 'catalogue' : 'none',
    catalogue: entry ? { name: CATALOGUE_NAME, model: entry.model } : null,
    unpriced_requests: seen.unpriced,
    updated_at: null,
    updated_by: null,
  };
}

const auditedPrice = (
  row: Pick<repo.PriceRow, 'model' | 'input_usd_per_million' | 'output_usd_per_million'>,
) => ({
  model: row.model,
  input_usd_per_million: row.input_usd_per_million,
  output_usd_per_million: row.output_usd_per_million,
});

/** Usage of the current day in LUMI_TIMEZONE, mapped onto hourly rollups (see lib/zoned-days.ts). */
async function todayUsage(
  db: Executor,
  rows: repo.BudgetRow[],
  now: number,
  timezone: string,
): Promise<Map<string, Usage>> {
  if (rows.length === 0) return new Map();
  const today = localDate(now, timezone);
  const from = hourKey(firstHourOfLocalDate(today, timezone));
  const to = hourKey(firstHourOfLocalDate(addDays(today, 1), timezone));
  const usage = await usageByProvider(
    db,
    from,
    to,
    rows.map((r) => r.provider),
  );
  return new Map(usage.map((u) => [u.provider, { tokens: u.tokens, cost: u.cost }]));
}

/**
 * Every active budget with the usage of the day `now` falls in (LUMI_TIMEZONE `timezone`): the ingest
 * answer's `budgets`, read in the ingest transaction that `db` is.
 */
export async function budgetStatuses(db: Executor, now: number, timezone: string): Promise<BudgetStatus[]> {
  const rows = await repo.listActiveBudgets(db);
  const usage = await todayUsage(db, rows, now, timezone);
  return rows.map((row) => {
    const { usage_percentage } = toBudget(row, usage.get(row.provider)).current_usage;
    return { provider: row.provider, usage_percentage, exceeded: usage_percentage >= 100 };
  });
}

const notFound = (provider: string) => new NotFoundError(`There is no budget for '${provider}'`);

/**
 * Token budgets per provider and the model price table (docs/operators/metrics.md, "Token budgets and model
 * prices"; `budgets:write` changes them).
 */
export class BudgetsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: Clock,
    private readonly settings: TelemetrySettings,
    /** Shared with the metrics (services.ts). */
    private readonly dashboardCache: TtlCache,
    /** Called after a budget or price change: every instance forgets its dashboard answers. */
    private readonly telemetryChanged: () => Promise<void>,
  ) {}

  /** Cached per local date, as usage is today's; the list is polled by the dashboard. */
  list(): Cached<TokenBudget[]> {
    const today = localDate(this.now(), this.settings.timezone);
    return this.dashboardCache.get(`budgets:${today}`, async () => {
      const rows = await repo.listBudgets(this.db);
      const usage = await todayUsage(this.db, rows, this.now(), this.settings.timezone);
      return rows.map((row) => toBudget(row, usage.get(row.provider)));
    });
  }

  async create(actor: Actor, provider: string, values: TokenBudgetValues): Promise<TokenBudget> {
    return this.inTransaction(async (trx) => {
      if (await repo.findBudget(trx, provider)) {
        throw new ConflictError(`There is a budget for '${provider}' already; change it instead`);
      }
      const at = isoTime(this.now());
      await repo.insertBudget(trx, {
        provider,
        ...this.columns(values),
        created_at: at,
        updated_at: at,
        updated_by: actor.username,
      });
      const budget = await this.get(trx, provider);
      await this.audit.record(trx, actor, {
        action: 'token_budget.created',
        resourceType: 'token_budget',
        resourceId: provider,
        resourceName: provider,
        newValue: auditedValues(budget),
      });
      return budget;
    });
  }

  async update(actor: Actor, provider: string, values: TokenBudgetValues): Promise<TokenBudget> {
    return this.inTransaction(async (trx) => {
      const before = await this.get(trx, provider);
      const at = isoTime(this.now());
      await repo.updateBudget(trx, provider, {
        ...this.columns(values),
        updated_at: at,
        updated_by: actor.username,
      });
      const after = await this.get(trx, provider);
      await this.audit.record(trx, actor, {
        action: 'token_budget.updated',
        resourceType: 'token_budget',
        resourceId: provider,
        resourceName: provider,
        oldValue: auditedValues(before),
        newValue: auditedValues(after),
      });
      return after;
    });
  }

  async remove(actor: Actor, provider: string): Promise<void> {
    await this.inTransaction(async (trx) => {
      const before = await this.get(trx, provider);
      // Of deletes at once, one finds the row; the rest find it gone (on PostgreSQL, once it commits).
      if (!(await repo.deleteBudget(trx, provider))) throw notFound(provider);
      await this.audit.record(trx, actor, {
        action: 'token_budget.deleted',
        resourceType: 'token_budget',
        resourceId: provider,
        resourceName: provider,
        oldValue: auditedValues(before),
      });
    });
  }

  /** The active budgets as stored, without usage: the alert rules measure them against their own reads. */
  activeBudgets(): Promise<repo.BudgetRow[]> {
    return repo.listActiveBudgets(this.db);
  }

  /**
   * The operator's prices, then every model seen in calls over the last 30 days that has none, with the
   * catalogue's price or none; a model's unpriced calls count under the name they were stored with.
   */
  async prices(): Promise<ModelPrice[]> {
    const [rows, seen] = await Promise.all([
      repo.listPrices(this.db),
      modelsSeen(this.db, hourKey(this.now() - SEEN_DAYS * DAY_MS)),
    ]);
    const unpricedByModel = new Map<string, number>();
    for (const s of seen) unpricedByModel.set(s.model, (unpricedByModel.get(s.model) ?? 0) + s.unpriced);
    const operator = rows.map((row) => operatorPrice(row, unpricedByModel.get(row.model)));
    const priced = new Set(rows.map((row) => row.model));
    const others = new Map<string, ModelPrice>();
    for (const s of seen) {
      if (priced.has(s.model) || priceNames({ model: s.model }).some((name) => priced.has(name))) continue;
      const held = others.get(s.model);
      if (held) held.unpriced_requests += s.unpriced;
      else others.set(s.model, seenModelPrice(s));
    }
    const byModel = (a: ModelPrice, b: ModelPrice) => a.model.localeCompare(b.model);
    return [...operator, ...[...others.values()].sort(byModel)];
  }

  /** Creates or replaces a model's price; calls already stored keep the cost they were given. */
  async setPrice(actor: Actor, model: string, values: ModelPriceInput): Promise<ModelPrice> {
    return this.inTransaction(async (trx) => {
      const before = await repo.findPrice(trx, model);
      const row = {
        model,
        ...values,
        updated_at: isoTime(this.now()),
        updated_by: actor.username,
      };
      await repo.upsertPrice(trx, row);
      await this.audit.record(trx, actor, {
        action: 'model_price.set',
        resourceType: 'model_price',
        resourceId: model,
        resourceName: model,
        oldValue: before ? auditedPrice(before) : null,
        newValue: { model, ...values },
      });
      return operatorPrice(row);
    });
  }

  /** Removes an operator's price: the model's calls are priced by the catalogue again from now on. */
  async removePrice(actor: Actor, model: string): Promise<void> {
    await this.inTransaction(async (trx) => {
      const before = await repo.findPrice(trx, model);
      // Of deletes at once, one finds the row; the rest find it gone.
      if (!before || !(await repo.deletePrice(trx, model))) {
        throw new NotFoundError(`No operator price for the model "${model}"`);
      }
      await this.audit.record(trx, actor, {
        action: 'model_price.deleted',
        resourceType: 'model_price',
        resourceId: model,
        resourceName: model,
        oldValue: auditedPrice(before),
        newValue: null,
      });
    });
  }

  private async get(db: Executor, provider: string): Promise<TokenBudget> {
    const row = await repo.findBudget(db, provider);
    if (!row) throw notFound(provider);
    const usage = await todayUsage(db, [row], this.now(), this.settings.timezone);
    return toBudget(row, usage.get(provider));
  }

  /** Runs `work` in a transaction; once it has ended, cached dashboard answers are forgotten everywhere. */
  private async inTransaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction().execute(work);
    } finally {
      await this.telemetryChanged();
    }
  }

  private columns(values: TokenBudgetValues) {
    return {
      daily_token_limit: values.daily_token_limit ?? null,
      daily_cost_limit: values.daily_cost_limit ?? null,
      is_active: values.is_active ? 1 : 0,
    };
  }
}
