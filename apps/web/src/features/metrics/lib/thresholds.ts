import type { BotHealth, MarketDataStatus } from '@lumi/contract';

/**
 * The panels' rules (spec section 2, 'Bot health card' and 'Other panels'; section 9). Each level comes
 * with a word as well as a colour, so colour is never the only signal.
 */
export type Level = 'success' | 'warning' | 'error';

/** Spec section 9: a healthy bot has fewer than 10 errors in 24 h. */
export const HEALTHY_ERROR_LIMIT = 10;
export const CACHE_GOOD_PERCENT = 80;
export const BUDGET_RED_PERCENT = 80;
export const BUDGET_YELLOW_PERCENT = 60;
export const INTEGRATION_GREEN_PERCENT = 99;
export const INTEGRATION_WARNING_PERCENT = 95;

/** Healthy only when Telegram is connected and the bot logged fewer than 10 errors in 24 hours. */
export function isBotHealthy(health: Pick<BotHealth, 'telegram_status' | 'error_count_24h'>): boolean {
  return health.telegram_status === 'connected' && health.error_count_24h < HEALTHY_ERROR_LIMIT;
}

/** Uptime in whole hours, rounded down. */
export function uptimeHours(seconds: number): number {
  return Math.floor(seconds / 3600);
}

/** 'Live' only when the data is current and the websocket connected. */
export function isMarketLive(status: Pick<MarketDataStatus, 'data_freshness' | 'websocket_status'>): boolean {
  return status.data_freshness === 'current' && status.websocket_status === 'connected';
}

/** What the Market Data panel says about the feed: 'Live', or the server's freshness text. */
export function marketFeedLabel(
  status: Pick<MarketDataStatus, 'data_freshness' | 'websocket_status'>,
): string {
  return isMarketLive(status) ? 'Live' : status.data_freshness;
}

/** Hit rate (0 to 1) in percent: green above 80 %, else a warning. */
export function cacheHitLevel(hitRate: number): Level {
  return hitRate * 100 > CACHE_GOOD_PERCENT ? 'success' : 'warning';
}

/**
 * How much faster a cached answer is: (uncached - cached) / uncached, in percent. Null while there is no
 * uncached time to compare with.
 */
export function speedBoostPercent(cachedMs: number, uncachedMs: number): number | null {
  if (uncachedMs <= 0) return null;
  return ((uncachedMs - cachedMs) / uncachedMs) * 100;
}

/** Budget bar colour: red above 80 %, yellow above 60 %, else green. */
export function budgetLevel(usagePercentage: number): Level {
  if (usagePercentage > BUDGET_RED_PERCENT) return 'error';
  if (usagePercentage > BUDGET_YELLOW_PERCENT) return 'warning';
  return 'success';
}

/** The filled share of the budget bar: the usage capped at 100 % (and never below 0). */
export function budgetBarPercent(usagePercentage: number): number {
  return Math.min(100, Math.max(0, usagePercentage));
}

/** The budget usage in words beside the bar's colour. */
export function budgetUsageText(usagePercentage: number): string {
  if (usagePercentage >= 100) return 'Limit reached';
  const words: Record<Level, string> = { success: 'Normal', warning: 'High', error: 'Critical' };
  return words[budgetLevel(usagePercentage)];
}

/** Integration success rate (percent): green above 99, a warning above 95, else an error. */
export function integrationLevel(successRate: number): Level {
  if (successRate > INTEGRATION_GREEN_PERCENT) return 'success';
  if (successRate > INTEGRATION_WARNING_PERCENT) return 'warning';
  return 'error';
}

/** Spec: model names containing 'vision' are Gemini Vision, 'embedding' Text Embedding, else Gemini Pro. */
export function geminiModelLabel(model: string): string {
  const name = model.toLowerCase();
  if (name.includes('vision')) return 'Gemini Vision';
  if (name.includes('embedding')) return 'Text Embedding';
  return 'Gemini Pro';
}
