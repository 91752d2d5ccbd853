import type { LlmFeatureUsage } from '@lumi/contract';
import type { ReactNode } from 'react';
import { ResponsiveTable, type ResponsiveColumn } from '@/components/ui/responsive-table';
import { formatCurrency } from '@/lib/format';
import { useLlmFeatures } from '../api/get-llm-features';
import { formatCount, formatPercent } from '../lib/format-metrics';
import { panelErrorMessage } from '../lib/panel-error';
import { describeHourlyRange, type TimeRange } from '../lib/time-range';
import { CallsLink } from './calls-link';
import { MetricCard, Totals } from './metric-card';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';

const TITLE = 'Cost by feature';

type FeatureRow = LlmFeatureUsage['features'][number];

function columns(totalCost: number, range: TimeRange): ReadonlyArray<ResponsiveColumn<FeatureRow>> {
  return [
    {
      header: 'Feature',
      primary: true,
      cell: (row) =>
        row.feature === null ? (
          <span className="text-muted-foreground italic">No feature</span>
        ) : (
          <span className="font-mono text-xs break-words">{row.feature}</span>
        ),
    },
    { header: 'Requests', numeric: true, cell: (row) => formatCount(row.requests) },
    { header: 'Input tokens', numeric: true, cell: (row) => formatCount(row.input_tokens) },
    { header: 'Output tokens', numeric: true, cell: (row) => formatCount(row.output_tokens) },
    { header: 'Cost', numeric: true, cell: (row) => formatCurrency(row.cost_usd) },
    {
      header: 'Share of cost',
      numeric: true,
      cell: (row) => formatPercent(totalCost === 0 ? 0 : (row.cost_usd / totalCost) * 100),
    },
    {
      header: 'Calls',
      headerHidden: true,
      cell: (row) => (
        <CallsLink
          filters={row.feature === null ? { no_feature: 'true' } : { feature: row.feature }}
          range={range}
          name={row.feature === null ? 'no feature' : `feature ${row.feature}`}
        />
      ),
    },
  ];
}

interface LlmFeaturesPanelProps {
  range: TimeRange;
  /** Buttons in the panel's header (an export of its rows, say). */
  actions?: ReactNode;
}

/** Cost, tokens and requests by the bot's feature over the chosen range, highest cost first. */
export function LlmFeaturesPanel({ range, actions }: LlmFeaturesPanelProps) {
  const features = useLlmFeatures(range);
  const data = features.data;
  const total = (data?.features ?? []).reduce(
    (sum, row) => ({
      cost: sum.cost + row.cost_usd,
      tokens: sum.tokens + row.input_tokens + row.output_tokens,
      requests: sum.requests + row.requests,
    }),
    { cost: 0, tokens: 0, requests: 0 },
  );
  return (
    <MetricCard title={TITLE} description={describeHourlyRange(range, data)} actions={actions}>
      {features.isPending && <PanelSkeleton label={TITLE} rows={4} />}
      {features.isError && !data && (
        <PanelError message={panelErrorMessage(features.error)} onRetry={() => void features.refetch()} />
      )}
      {data && data.features.length === 0 && <PanelEmpty>No LLM calls in this range.</PanelEmpty>}
      {data && data.features.length > 0 && (
        <div className="space-y-4">
          <Totals
            items={[
              { label: 'Cost', value: formatCurrency(total.cost) },
              { label: 'Tokens', value: formatCount(total.tokens) },
              { label: 'Requests', value: formatCount(total.requests) },
            ]}
          />
          <ResponsiveTable
            aria-label="Usage by feature"
            columns={columns(total.cost, range)}
            rows={data.features}
            rowKey={(row) => row.feature ?? ''}
          />
        </div>
      )}
    </MetricCard>
  );
}
