import type { IntegrationMetrics, IntegrationStatus } from '@lumi/contract';
import { Table, Td, Th } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { useIntegrations } from '../api/get-integrations';
import { formatCount, formatPercent } from '../lib/format-metrics';
import { panelErrorMessage } from '../lib/panel-error';
import { integrationLevel, type Level } from '../lib/thresholds';
import { LevelBadge } from './level-badge';
import { MetricCard } from './metric-card';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';

const TITLE = 'Integrations';

const RATE_TEXT: Record<Level, string> = { success: 'Healthy', warning: 'Degraded', error: 'Failing' };
const LAST_STATUS: Record<IntegrationStatus, { level: 'success' | 'error' | 'unknown'; text: string }> = {
  success: { level: 'success', text: 'Success' },
  error: { level: 'error', text: 'Error' },
  other: { level: 'unknown', text: 'Other' },
};

function IntegrationsTable({ services }: { services: IntegrationMetrics['data'] }) {
  return (
    <Table aria-label="External services">
      <thead>
        <tr>
          <Th>Service</Th>
          <Th>Last call</Th>
          <Th>Last status</Th>
          <Th className="text-right">Calls</Th>
          <Th className="text-right">Errors</Th>
          <Th>Success rate</Th>
        </tr>
      </thead>
      <tbody>
        {services.map((service) => {
          const level = integrationLevel(service.success_rate);
          const last = LAST_STATUS[service.last_status];
          return (
            <tr key={service.service_name}>
              <Td className="font-medium break-all">{service.service_name}</Td>
              <Td className="whitespace-nowrap">{formatDateTime(service.last_api_call)}</Td>
              <Td>
                <LevelBadge level={last.level}>{last.text}</LevelBadge>
              </Td>
              <Td className="text-right tabular-nums">{formatCount(service.total_calls)}</Td>
              <Td className="text-right tabular-nums">{formatCount(service.error_count)}</Td>
              <Td className="whitespace-nowrap">
                <LevelBadge level={level}>
                  {formatPercent(service.success_rate)} · {RATE_TEXT[level]}
                </LevelBadge>
              </Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}

/** Integrations (spec section 2): success rate green above 99 %, a warning above 95 %, else an error. */
export function IntegrationsPanel() {
  const integrations = useIntegrations();
  const services = integrations.data?.data;
  return (
    <MetricCard title={TITLE} description="External services over the last 24 hours">
      {integrations.isPending && <PanelSkeleton label={TITLE} />}
      {integrations.isError && !services && (
        <PanelError
          message={panelErrorMessage(integrations.error)}
          onRetry={() => void integrations.refetch()}
        />
      )}
      {services?.length === 0 && <PanelEmpty>No calls to external services in the last 24 hours.</PanelEmpty>}
      {services && services.length > 0 && <IntegrationsTable services={services} />}
    </MetricCard>
  );
}
