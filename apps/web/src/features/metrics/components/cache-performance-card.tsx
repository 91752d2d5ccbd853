import { useCacheMetrics } from '../api/get-cache-metrics';
import { formatCount, formatPercent } from '../lib/format-metrics';
import { panelErrorMessage } from '../lib/panel-error';
import { cacheHitLevel, speedBoostPercent } from '../lib/thresholds';
import { LevelBadge } from './level-badge';
import { MetricCard, Stat } from './metric-card';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';

const TITLE = 'Cache Performance';

const ms = (value: number) => `${formatCount(value)} ms`;

/** Cache Performance (spec section 2): hit rate green above 80 %, and the speed boost of a cached answer. */
export function CachePerformanceCard() {
  const cache = useCacheMetrics();
  const metrics = cache.data;
  const reported = metrics && metrics.last_updated !== null;
  const level = metrics ? cacheHitLevel(metrics.hit_rate) : 'success';
  const boost = metrics
    ? speedBoostPercent(metrics.avg_response_time_cached, metrics.avg_response_time_uncached)
    : null;
  return (
    <MetricCard
      title={TITLE}
      description="Last 24 hours"
      aside={
        reported && <LevelBadge level={level}>{level === 'success' ? 'Good' : 'Low hit rate'}</LevelBadge>
      }
    >
      {cache.isPending && <PanelSkeleton label={TITLE} />}
      {cache.isError && !metrics && (
        <PanelError message={panelErrorMessage(cache.error)} onRetry={() => void cache.refetch()} />
      )}
      {metrics && !reported && (
        <PanelEmpty>The bot has not reported cache statistics in the last 24 hours.</PanelEmpty>
      )}
      {reported && (
        <div className="space-y-3">
          <p className="text-2xl font-semibold">
            {formatPercent(metrics.hit_rate * 100)}{' '}
            <span className="text-sm font-normal text-muted-foreground">hit rate</span>
          </p>
          <dl>
            <Stat label="Total hits">{formatCount(metrics.total_hits)}</Stat>
            <Stat label="Entries">{formatCount(metrics.cache_entries)}</Stat>
            <Stat label="Avg. cached">{ms(metrics.avg_response_time_cached)}</Stat>
            <Stat label="Avg. uncached">{ms(metrics.avg_response_time_uncached)}</Stat>
            <Stat label="Speed boost">{boost === null ? 'Not measured' : formatPercent(boost)}</Stat>
          </dl>
        </div>
      )}
    </MetricCard>
  );
}
