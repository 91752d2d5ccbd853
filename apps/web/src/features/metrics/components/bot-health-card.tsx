import { NO_HEARTBEAT, type BotHealth } from '@lumi/contract';
import { formatDateTime } from '@/lib/format';
import { useBotHealth } from '../api/get-bot-health';
import { formatCount } from '../lib/format-metrics';
import { panelErrorMessage } from '../lib/panel-error';
import { isBotHealthy, uptimeHours } from '../lib/thresholds';
import { LevelBadge } from './level-badge';
import { MetricCard, Stat } from './metric-card';
import { PanelError, PanelSkeleton } from './panel-states';

const TITLE = 'Bot Health';

function telegramText(status: string): string {
  return status === NO_HEARTBEAT ? 'No heartbeat' : status;
}

/** Why a bot is not healthy, in words. */
function issueText(health: BotHealth): string {
  if (health.telegram_status !== 'connected') return `Telegram: ${telegramText(health.telegram_status)}`;
  return `${formatCount(health.error_count_24h)} errors in the last 24 hours`;
}

function BotHealthDetails({ health }: { health: BotHealth }) {
  const healthy = isBotHealthy(health);
  const hours = uptimeHours(health.uptime_seconds);
  return (
    <div className="space-y-3">
      <div>
        <p className="text-2xl font-semibold">{healthy ? 'Healthy' : 'Issues'}</p>
        {!healthy && <p className="text-sm text-muted-foreground">{issueText(health)}</p>}
      </div>
      <dl>
        <Stat label="Telegram">{telegramText(health.telegram_status)}</Stat>
        <Stat label="Uptime">{`${formatCount(hours)} ${hours === 1 ? 'hour' : 'hours'}`}</Stat>
        <Stat label="Errors (24 h)">{formatCount(health.error_count_24h)}</Stat>
        <Stat label="Active locks">{formatCount(health.active_locks.length)}</Stat>
      </dl>
      {health.active_locks.length > 0 && (
        <ul aria-label="Active locks" className="space-y-1 rounded-md border p-2 text-xs">
          {health.active_locks.map((lock) => (
            <li key={`${lock.name}:${lock.holder}`} className="flex flex-wrap justify-between gap-x-3">
              <span className="font-mono font-medium break-all">{lock.name}</span>
              <span className="text-muted-foreground">
                {lock.holder} since {formatDateTime(lock.since)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Bot health card (spec section 2): 'Operational' and 'Healthy' only for a connected bot with few errors. */
export function BotHealthCard() {
  const health = useBotHealth();
  const healthy = health.data ? isBotHealthy(health.data) : false;
  return (
    <MetricCard
      title={TITLE}
      aside={
        health.data && (
          <LevelBadge level={healthy ? 'success' : 'error'}>{healthy ? 'Operational' : 'Issues'}</LevelBadge>
        )
      }
    >
      {health.isPending && <PanelSkeleton label={TITLE} />}
      {health.isError && !health.data && (
        <PanelError
          title="No data"
          message={panelErrorMessage(health.error)}
          onRetry={() => void health.refetch()}
        />
      )}
      {health.data && <BotHealthDetails health={health.data} />}
    </MetricCard>
  );
}
