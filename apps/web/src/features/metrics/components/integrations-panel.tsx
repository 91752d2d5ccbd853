import type { IntegrationMetrics, IntegrationStatus } from '@lumi/contract';
import { ResponsiveTable, type ResponsiveColumn } from '@/components/ui/responsive-table';
import { formatDateTime } from '@/lib/format';
import { useIntegrations } from '../api/get-integrations';
import { formatCount, formatPercent } from '../lib/format-metrics';
import { panelErrorMessage } from '../lib/panel-error';
import { integrationLevel, type Level } from '../lib/thresholds';
import { LevelBadge } from './level-badge';
import { MetricCard } from './metric-card';
import { PanelExportButton } from './panel-export-button';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';

const TITLE = 'Integrations';

const RATE_TEXT: Record<Level, string> = { success: 'Healthy', warning: 'Degraded', error: 'Failing' };
const LAST_STATUS: Record<IntegrationStatus, { level: 'success' | 'error' | 'unknown'; text: string }> = {
  success: { level: 'success', text: 'Success' },
  error: { level: 'error', text: 'Error' },
  other: { level: 'unknown', text: 'Other' },
};

type Service = IntegrationMetrics['data'][number];

/** Status and success rate first: on a phone's card they are what an operator looks for. */
const COLUMNS: ReadonlyArray<ResponsiveColumn<Service>> = [
  { header: 'Service', primary: true, className: 'font-medium', cell: (service) => service.service_name },
  {
    header: 'Success rate',
    className: 'whitespace-nowrap',
    cell: (service) => {
      const level = integrationLevel(service.success_rate);
      return (
        <LevelBadge level={level}>
          {formatPercent(service.success_rate)} · {RATE_TEXT[level]}
        </LevelBadge>
      );
    },
  },
  {
    header: 'Last status',
    cell: (service) => {
      const last = LAST_STATUS[service.last_status];
      return <LevelBadge level={last.level}>{last.text}</LevelBadge>;
    },
  },
  { header: 'Calls', numeric: true, cell: (service) => formatCount(service.total_calls) },
  { header: 'Errors', numeric: true, cell: (service) => formatCount(service.error_count) },
  {
    header: 'Last call',
    className: 'sm:whitespace-nowrap',
    cell: (service) => formatDateTime(service.last_api_call),
  },
];

/** Integrations (spec section 2): success rate green above 99 %, a warning above 95 %, else an error. */
export function IntegrationsPanel() {
  const integrations = useIntegrations();
  const services = integrations.data?.data;
  return (
    <MetricCard
      title={TITLE}
      description="External services over the last 24 hours"
      // No range: the export's default is the panel's own (the last 24 hours, the current hour included).
      actions={<PanelExportButton panel="integrations" />}
    >
      {integrations.isPending && <PanelSkeleton label={TITLE} />}
      {integrations.isError && !services && (
        <PanelError
          message={panelErrorMessage(integrations.error)}
          onRetry={() => void integrations.refetch()}
        />
      )}
      {services?.length === 0 && <PanelEmpty>No calls to external services in the last 24 hours.</PanelEmpty>}
      {services && services.length > 0 && (
        <ResponsiveTable
          aria-label="External services"
          columns={COLUMNS}
          rows={services}
          rowKey={(service) => service.service_name}
        />
      )}
    </MetricCard>
  );
}
