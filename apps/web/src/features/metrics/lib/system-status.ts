import type { BotHealth, CacheMetrics, IntegrationMetrics, MarketDataStatus } from '@lumi/contract';
import { MARKET_DATA_NONE } from '@lumi/contract';
import { cacheHitLevel, integrationLevel, isBotHealthy, isMarketLive, type Level } from './thresholds';

/** A part of the system as the status card judges it; 'unknown' when it could not be loaded or never reported. */
export type PartStatus = Level | 'unknown';

export interface SystemParts {
  bot: BotHealth | undefined;
  market: MarketDataStatus | undefined;
  cache: CacheMetrics | undefined;
  integrations: IntegrationMetrics | undefined;
}

export function botStatus(bot: BotHealth | undefined): PartStatus {
  if (!bot) return 'unknown';
  return isBotHealthy(bot) ? 'success' : 'error';
}

/** A feed that is not live is lagging or disconnected: degraded, not down. */
export function marketStatus(market: MarketDataStatus | undefined): PartStatus {
  if (!market || market.data_freshness === MARKET_DATA_NONE) return 'unknown';
  return isMarketLive(market) ? 'success' : 'warning';
}

export function cacheStatus(cache: CacheMetrics | undefined): PartStatus {
  if (!cache || cache.last_updated === null) return 'unknown';
  return cacheHitLevel(cache.hit_rate);
}

/** The integrations are as good as the worst service. */
export function integrationsStatus(integrations: IntegrationMetrics | undefined): PartStatus {
  if (!integrations || integrations.data.length === 0) return 'unknown';
  const levels = integrations.data.map((service) => integrationLevel(service.success_rate));
  if (levels.includes('error')) return 'error';
  if (levels.includes('warning')) return 'warning';
  return 'success';
}

/**
 * One verdict for the whole system (docs/operators/console-guide.md, "Overview": the status card summarises
 * bot, feed, cache and integrations): the worst known part decides; unknown parts only matter when all else
 * is fine.
 */
export function systemVerdict(parts: PartStatus[]): PartStatus {
  if (parts.includes('error')) return 'error';
  if (parts.includes('warning')) return 'warning';
  if (parts.includes('unknown')) return 'unknown';
  return 'success';
}

export const VERDICT_TEXT: Record<PartStatus, string> = {
  success: 'All systems operational',
  warning: 'Degraded performance',
  error: 'Issues detected',
  unknown: 'Status incomplete',
};

export const PART_TEXT: Record<PartStatus, string> = {
  success: 'Operational',
  warning: 'Degraded',
  error: 'Issues',
  unknown: 'Unknown',
};
