import { Activity } from 'lucide-react';
import { useBotHealth } from '../api/get-bot-health';
import { useCacheMetrics } from '../api/get-cache-metrics';
import { useIntegrations } from '../api/get-integrations';
import { useMarketData } from '../api/get-market-data';
import {
  botStatus,
  cacheStatus,
  integrationsStatus,
  marketStatus,
  PART_TEXT,
  systemVerdict,
  VERDICT_TEXT,
} from '../lib/system-status';
import { LevelBadge } from './level-badge';
import { MetricCard } from './metric-card';
import { PanelSkeleton } from './panel-states';

const TITLE = 'System Status';

/**
 * The system status card (docs/operators/console-guide.md, "Overview"): bot, market feed, cache and
 * integrations in one verdict. It reads the same queries as their own panels, so it asks the server nothing
 * extra.
 */
export function SystemStatusCard() {
  const bot = useBotHealth();
  const market = useMarketData();
  const cache = useCacheMetrics();
  const integrations = useIntegrations();
  const loading = [bot, market, cache, integrations].some((query) => query.isPending);

  const parts = [
    { name: 'Bot', status: botStatus(bot.data) },
    { name: 'Market feed', status: marketStatus(market.data) },
    { name: 'Cache', status: cacheStatus(cache.data) },
    { name: 'Integrations', status: integrationsStatus(integrations.data) },
  ];
  const verdict = systemVerdict(parts.map((part) => part.status));

  return (
    <MetricCard title={TITLE}>
      {loading ? (
        <PanelSkeleton label={TITLE} />
      ) : (
        <div className="space-y-3">
          <p className="flex items-center gap-2 text-lg font-semibold">
            <Activity aria-hidden className="size-5 text-muted-foreground" />
            {VERDICT_TEXT[verdict]}
          </p>
          <ul aria-label="System parts" className="space-y-1.5">
            {parts.map((part) => (
              <li key={part.name} className="flex items-center justify-between gap-3 text-sm">
                <span className="text-muted-foreground">{part.name}</span>
                <LevelBadge level={part.status}>{PART_TEXT[part.status]}</LevelBadge>
              </li>
            ))}
          </ul>
        </div>
      )}
    </MetricCard>
  );
}
