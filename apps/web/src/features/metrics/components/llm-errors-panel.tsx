import type { LlmErrors } from '@lumi/contract';
import { ResponsiveTable, type ResponsiveColumn } from '@/components/ui/responsive-table';
import { useLlmErrors } from '../api/get-llm-errors';
import { formatCount, formatPercent } from '../lib/format-metrics';
import { modelName } from '../lib/latency-series';
import { panelErrorMessage } from '../lib/panel-error';
import { describeHourlyRange, type TimeRange } from '../lib/time-range';
import { CallsLink } from './calls-link';
import { MetricCard } from './metric-card';
import { modelCallsColumn, modelColumn } from './model-columns';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';

const TITLE = 'Errors';

type ModelRow = LlmErrors['models'][number];
type TypeRow = LlmErrors['error_types'][number];

function modelColumns(range: TimeRange): ReadonlyArray<ResponsiveColumn<ModelRow>> {
  return [
    modelColumn(),
    { header: 'Requests', numeric: true, cell: (row) => formatCount(row.requests) },
    { header: 'Failed', numeric: true, cell: (row) => formatCount(row.failed_requests) },
    { header: 'Error rate', numeric: true, cell: (row) => formatPercent(row.error_rate) },
    modelCallsColumn(range),
  ];
}

function typeColumns(totalErrors: number, range: TimeRange): ReadonlyArray<ResponsiveColumn<TypeRow>> {
  return [
    {
      header: 'Error type',
      primary: true,
      cell: (row) => <span className="font-mono text-xs break-words">{row.error_type}</span>,
    },
    { header: 'Errors', numeric: true, cell: (row) => formatCount(row.errors) },
    // Failures of this type per call of the range: how often the bot meets it, not only among errors.
    { header: 'Error rate', numeric: true, cell: (row) => formatPercent(row.error_rate) },
    {
      header: 'Share of errors',
      numeric: true,
      cell: (row) => formatPercent(totalErrors === 0 ? 0 : (row.errors / totalErrors) * 100),
    },
    {
      header: 'Calls',
      headerHidden: true,
      cell: (row) => (
        <CallsLink filters={{ error_type: row.error_type }} range={range} name={`error ${row.error_type}`} />
      ),
    },
  ];
}

function ErrorsView({ errors, range }: { errors: LlmErrors; range: TimeRange }) {
  const totalErrors = errors.error_types.reduce((sum, row) => sum + row.errors, 0);
  return (
    <div className="space-y-4">
      <section aria-label="Error rate by model" className="space-y-2">
        <h3 className="text-sm font-medium">Error rate by model</h3>
        <ResponsiveTable
          aria-label="Error rate by model"
          columns={modelColumns(range)}
          rows={errors.models}
          rowKey={modelName}
        />
      </section>
      <section aria-label="Errors by type" className="space-y-2">
        <h3 className="text-sm font-medium">Errors by type</h3>
        {errors.error_types.length === 0 ? (
          <PanelEmpty>No errors in this range.</PanelEmpty>
        ) : (
          <ResponsiveTable
            aria-label="Errors by type"
            columns={typeColumns(totalErrors, range)}
            rows={errors.error_types}
            rowKey={(row) => row.error_type}
          />
        )}
      </section>
    </div>
  );
}

/** Error rate by provider and model, and failed calls by the bot's error type, over the chosen range. */
export function LlmErrorsPanel({ range }: { range: TimeRange }) {
  const errors = useLlmErrors(range);
  const data = errors.data;
  return (
    <MetricCard title={TITLE} description={describeHourlyRange(range, data)}>
      {errors.isPending && <PanelSkeleton label={TITLE} rows={4} />}
      {errors.isError && !data && (
        <PanelError message={panelErrorMessage(errors.error)} onRetry={() => void errors.refetch()} />
      )}
      {data && data.models.length === 0 && <PanelEmpty>No LLM calls in this range.</PanelEmpty>}
      {data && data.models.length > 0 && <ErrorsView errors={data} range={range} />}
    </MetricCard>
  );
}
