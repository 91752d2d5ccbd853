import type { ReactNode } from 'react';
import { PageHeader } from '@/components/ui/page-header';
import { ApiError } from '@/lib/api-client';
import { useHasPermission } from '@/lib/permissions';
import { useBotHealth } from '../api/get-bot-health';
import { useCacheMetrics } from '../api/get-cache-metrics';
import { useIntegrations } from '../api/get-integrations';
import { useLlmUsage } from '../api/get-llm-usage';
import { useMarketData } from '../api/get-market-data';
import { useLlmUsageDays } from '../hooks/use-llm-usage-days';
import { BotHealthCard } from './bot-health-card';
import { CachePerformanceCard } from './cache-performance-card';
import { DashboardError, DashboardErrorBoundary } from './dashboard-error';
import { DeliveriesCard } from './deliveries-card';
import { LlmUsagePanel } from './llm-usage-panel';
import { MarketDataCard } from './market-data-card';
import { SystemStatusCard } from './system-status-card';

/**
 * The panels of the Overview. When not one of its calls succeeds (the server is down, or the user may
 * not read metrics) the page says so once instead of showing five broken panels.
 */
function OverviewPanels() {
  const { days, setDays } = useLlmUsageDays();
  // The delivery log is the templates' (templates:read): a metrics reader without it sees no card.
  const canReadDeliveries = useHasPermission('templates:read');
  const queries = [useBotHealth(), useMarketData(), useCacheMetrics(), useIntegrations(), useLlmUsage(days)];
  if (queries.every((query) => query.isError && !query.data)) {
    const apiError = queries.map((query) => query.error).find((error) => error instanceof ApiError);
    return (
      <DashboardError
        detail={apiError?.detail || undefined}
        onRetry={() => queries.forEach((query) => void query.refetch())}
      />
    );
  }
  return (
    <div className="space-y-4">
      <div className="grid gap-4 md:grid-cols-3">
        <SystemStatusCard />
        <MarketDataCard />
        <CachePerformanceCard />
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <LlmUsagePanel days={days} onDaysChange={setDays} className="lg:col-span-2" />
        <div className="space-y-4">
          <BotHealthCard />
          {canReadDeliveries && <DeliveriesCard />}
        </div>
      </div>
    </div>
  );
}

/**
 * System Overview (spec section 2): status, market data, cache, LLM usage, the bot's health and its
 * deliveries. `banner` sits above the panels (the firing alerts, which src/app brings in).
 */
export function OverviewPage({ banner }: { banner?: ReactNode }) {
  return (
    <div>
      <PageHeader title="System Overview" subtitle="The bot, its data feeds and its LLM spend at a glance" />
      {banner}
      <DashboardErrorBoundary>
        <OverviewPanels />
      </DashboardErrorBoundary>
    </div>
  );
}
