import type { ScheduleDataSource } from '@lumi/contract';
import { localDate } from '../../../lib/zoned-days.js';
import type { Clock } from '../../../lib/time.js';
import type { BudgetsService } from '../../budgets/budgets.service.js';
import type { MetricsService } from '../../metrics/metrics.service.js';

/**
 * The data sources of schedules (docs/bot-developers/deliveries.md, "Schedules"): values Lumi itself knows,
 * read at run time through the telemetry services, with the same figures the dashboards show. Each source's
 * variables are in the variables catalogue (variables.seed.ts), so the editor offers them.
 */
export class ScheduleData {
  constructor(
    private readonly metrics: MetricsService,
    private readonly budgets: BudgetsService,
    private readonly now: Clock,
    /** LUMI_TIMEZONE: the days of "yesterday" and "today". */
    private readonly timezone: string,
  ) {}

  resolve = async (
    source: ScheduleDataSource,
    fixed: Record<string, unknown>,
  ): Promise<Record<string, unknown>> => {
    switch (source) {
      case 'fixed':
        return fixed;
      case 'llm_usage_yesterday':
        return this.llmUsageYesterday();
      case 'bot_health':
        return this.botHealth();
      case 'token_budgets':
        return this.tokenBudgets();
    }
  };

  /** Yesterday in LUMI_TIMEZONE, by provider (tokens, cost, requests) and in all. */
  private async llmUsageYesterday() {
    const { date, providers } = await this.metrics.llmUsageOfDay(1);
    return {
      usage_date: date,
      providers,
      total_tokens: providers.reduce((sum, row) => sum + row.tokens, 0),
      total_cost: Math.round(providers.reduce((sum, row) => sum + row.cost, 0) * 1e6) / 1e6,
      total_requests: providers.reduce((sum, row) => sum + row.requests, 0),
    };
  }

  private async botHealth() {
    const health = await this.metrics.botHealth();
    return {
      telegram_status: health.telegram_status,
      uptime_seconds: health.uptime_seconds,
      uptime_hours: Math.floor(health.uptime_seconds / 3600),
      error_count_24h: health.error_count_24h,
      active_lock_count: health.active_locks.length,
      active_locks: health.active_locks,
    };
  }

  /** Active budgets with today's usage in LUMI_TIMEZONE. */
  private async tokenBudgets() {
    const budgets = (await this.budgets.list()).filter((budget) => budget.is_active);
    const rows = budgets.map((budget) => ({
      provider: budget.provider,
      daily_token_limit: budget.daily_token_limit,
      daily_cost_limit: budget.daily_cost_limit,
      tokens_used: budget.current_usage.tokens_used,
      cost_incurred: budget.current_usage.cost_incurred,
      usage_percentage: budget.current_usage.usage_percentage,
      exceeded: budget.current_usage.usage_percentage >= 100,
    }));
    return {
      budget_date: localDate(this.now(), this.timezone),
      budgets: rows,
      exceeded_count: rows.filter((row) => row.exceeded).length,
    };
  }
}
