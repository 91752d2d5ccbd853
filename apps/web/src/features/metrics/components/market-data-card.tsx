import { MARKET_DATA_NONE } from '@lumi/contract';
import { formatDateTime } from '@/lib/format';
import { useMarketData } from '../api/get-market-data';
import { formatCount } from '../lib/format-metrics';
import { panelErrorMessage } from '../lib/panel-error';
import { isMarketLive, marketFeedLabel } from '../lib/thresholds';
import { LevelBadge } from './level-badge';
import { MetricCard, Stat } from './metric-card';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';

const TITLE = 'Market Data';

/** Market Data (spec section 2): 'Live' only for current data over a connected websocket. */
export function MarketDataCard() {
  const market = useMarketData();
  const status = market.data;
  const reported = status && status.data_freshness !== MARKET_DATA_NONE;
  return (
    <MetricCard
      title={TITLE}
      aside={
        reported && (
          <LevelBadge level={isMarketLive(status) ? 'success' : 'warning'}>
            {marketFeedLabel(status)}
          </LevelBadge>
        )
      }
    >
      {market.isPending && <PanelSkeleton label={TITLE} rows={3} />}
      {market.isError && !status && (
        <PanelError message={panelErrorMessage(market.error)} onRetry={() => void market.refetch()} />
      )}
      {status && !reported && <PanelEmpty>The bot has not reported the market data feed yet.</PanelEmpty>}
      {reported && (
        <dl>
          <Stat label="WebSocket">{status.websocket_status}</Stat>
          <Stat label="Last candle">{formatDateTime(status.last_candle_time, 'None')}</Stat>
          <Stat label="Missing intervals">{formatCount(status.missing_intervals)}</Stat>
        </dl>
      )}
    </MetricCard>
  );
}
