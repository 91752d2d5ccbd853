import type { LlmCall } from '@lumi/contract';
import { X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ExportButtons } from '@/components/ui/export-buttons';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { ResponsiveTable, type ResponsiveColumn } from '@/components/ui/responsive-table';
import { formatCurrency, formatDateTime } from '@/lib/format';
import { downloadLlmCalls, useLlmCalls } from '../api/list-llm-calls';
import {
  CALL_FILTERS,
  callFilterProblem,
  parseCallFilters,
  type CallFilterName,
  type CallFilters,
} from '../lib/call-filters';
import { formatCount } from '../lib/format-metrics';
import { panelErrorMessage } from '../lib/panel-error';
import type { TimeRange } from '../lib/time-range';
import { MetricCard } from './metric-card';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';
import { TimeRangePicker } from './time-range-picker';

const TITLE = 'Calls';

/** The filters typed in the form; the failed and no-feature filters are chosen, not typed. */
const TYPED: ReadonlyArray<{
  name: CallFilterName;
  label: string;
  placeholder: string;
  inputMode?: 'numeric' | 'decimal';
}> = [
  { name: 'provider', label: 'Provider', placeholder: 'openai' },
  { name: 'model', label: 'Model', placeholder: 'gpt-4o-mini' },
  { name: 'feature', label: 'Feature', placeholder: 'reply' },
  { name: 'chat_id', label: 'Chat', placeholder: '-1001234567890', inputMode: 'numeric' },
  { name: 'user_id', label: 'User', placeholder: '123456789', inputMode: 'numeric' },
  { name: 'error_type', label: 'Error type', placeholder: 'rate_limited' },
  { name: 'min_latency_ms', label: 'Latency at least (ms)', placeholder: '2000', inputMode: 'numeric' },
  { name: 'min_cost_usd', label: 'Cost at least (USD)', placeholder: '0.05', inputMode: 'decimal' },
];

const labelOf = (name: CallFilterName) => CALL_FILTERS.find((filter) => filter.name === name)!.label;

/** A filter as its chip says it. */
function describeFilter(name: CallFilterName, value: string): string {
  if (name === 'failed') return value === 'true' ? 'Failed calls' : 'Successful calls';
  if (name === 'no_feature') return 'No feature';
  return `${labelOf(name)}: ${value}`;
}

function useCallFilters() {
  const [params, setParams] = useSearchParams();
  const filters = parseCallFilters(params);
  const setFilters = (next: CallFilters) =>
    setParams((previous) => {
      const updated = new URLSearchParams(previous);
      for (const { name } of CALL_FILTERS) {
        const value = next[name];
        if (value === undefined || value === '') updated.delete(name);
        else updated.set(name, value);
      }
      return updated;
    });
  return { filters, setFilters };
}

function FilterForm({ filters, onApply }: { filters: CallFilters; onApply: (filters: CallFilters) => void }) {
  const [values, setValues] = useState<CallFilters>(filters);
  const [errors, setErrors] = useState<Partial<Record<CallFilterName, string>>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: CallFilters = {};
    const problems: Partial<Record<CallFilterName, string>> = {};
    for (const { name } of CALL_FILTERS) {
      const value = values[name]?.trim();
      if (!value) continue;
      const problem = callFilterProblem(name, value);
      if (problem) problems[name] = problem;
      else next[name] = value;
    }
    setErrors(problems);
    if (Object.keys(problems).length === 0) onApply(next);
  };
  const set = (name: CallFilterName, value: string) =>
    setValues((previous) => ({ ...previous, [name]: value }));
  return (
    <form onSubmit={submit} aria-label="Call filters" className="space-y-3" noValidate>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {TYPED.map(({ name, label, placeholder, inputMode }) => (
          <Field key={name} label={label} error={errors[name]}>
            <Input
              value={values[name] ?? ''}
              placeholder={placeholder}
              inputMode={inputMode}
              onChange={(event) => set(name, event.target.value)}
            />
          </Field>
        ))}
        <Field label="Outcome">
          <Select value={values.failed ?? ''} onChange={(event) => set('failed', event.target.value)}>
            <option value="">Any</option>
            <option value="true">Failed</option>
            <option value="false">Succeeded</option>
          </Select>
        </Field>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm">
          Apply Filters
        </Button>
        <Button
          type="button"
          variant="secondary"
          size="sm"
          onClick={() => {
            setValues({});
            setErrors({});
            onApply({});
          }}
        >
          Clear Filters
        </Button>
      </div>
    </form>
  );
}

function ActiveFilters({
  filters,
  onChange,
}: {
  filters: CallFilters;
  onChange: (filters: CallFilters) => void;
}) {
  const active = CALL_FILTERS.filter(({ name }) => filters[name] !== undefined);
  if (active.length === 0) return null;
  return (
    <ul aria-label="Active filters" className="flex flex-wrap gap-2">
      {active.map(({ name }) => (
        <li key={name}>
          <Badge className="gap-1 pr-1">
            {describeFilter(name, filters[name]!)}
            <button
              type="button"
              className="rounded-sm p-0.5 hover:bg-background/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              aria-label={`Remove filter ${describeFilter(name, filters[name]!)}`}
              onClick={() => onChange({ ...filters, [name]: undefined })}
            >
              <X aria-hidden className="size-3" />
            </button>
          </Badge>
        </li>
      ))}
    </ul>
  );
}

const tokens = (call: LlmCall) =>
  call.usage_known ? `${formatCount(call.input_tokens)} / ${formatCount(call.output_tokens)}` : 'Unknown';

const COLUMNS: ReadonlyArray<ResponsiveColumn<LlmCall>> = [
  {
    header: 'Time',
    primary: true,
    className: 'whitespace-nowrap',
    cell: (call) => (
      <Link to={`/metrics/calls/${call.id}`} className="font-medium underline-offset-2 hover:underline">
        {formatDateTime(call.ts)}
      </Link>
    ),
  },
  {
    header: 'Model',
    cell: (call) => (
      <span className="break-all">
        {call.model}
        <span className="block text-xs text-muted-foreground">{call.provider}</span>
      </span>
    ),
  },
  { header: 'Feature', cell: (call) => call.feature ?? '—' },
  { header: 'Chat', className: 'font-mono text-xs', cell: (call) => call.chat_id ?? '—' },
  { header: 'User', className: 'font-mono text-xs', cell: (call) => call.user_id ?? '—' },
  { header: 'Tokens in / out', numeric: true, cell: tokens },
  {
    header: 'Cost',
    numeric: true,
    cell: (call) =>
      call.cost_source === 'unpriced' ? (
        <Badge variant="warning">Unpriced</Badge>
      ) : (
        formatCurrency(call.cost_usd)
      ),
  },
  { header: 'Latency', numeric: true, cell: (call) => `${formatCount(Math.round(call.latency_ms))} ms` },
  {
    header: 'Status',
    cell: (call) =>
      call.success ? (
        <Badge variant="success">OK</Badge>
      ) : (
        <Badge variant="destructive">{call.error_type}</Badge>
      ),
  },
];

/**
 * The Calls tab (docs/operators/console-guide.md, "Calls"): the LLM calls behind the figures, newest first,
 * filtered by the URL's filters over the screen's time range, a page at a time.
 */
export function CallsTab({
  range,
  onRangeChange,
}: {
  range: TimeRange;
  onRangeChange: (range: TimeRange) => void;
}) {
  const { filters, setFilters } = useCallFilters();
  const calls = useLlmCalls(range, filters);
  const first = calls.data?.pages[0];
  const rows = calls.data?.pages.flatMap((page) => page.calls) ?? [];
  const searchedTo = calls.data?.pages.at(-1)?.searched_to ?? null;
  return (
    <div className="space-y-6">
      <MetricCard
        title="Filters"
        description="Each filter narrows the calls of the time range; all apply at once"
      >
        <div className="space-y-4">
          <TimeRangePicker range={range} onChange={onRangeChange} />
          <FilterForm key={JSON.stringify(filters)} filters={filters} onApply={setFilters} />
        </div>
      </MetricCard>
      <MetricCard
        title={TITLE}
        actions={
          <ExportButtons
            formats={[{ format: 'csv', name: 'CSV' }]}
            subject="calls"
            nameSubject
            download={(_format, options) => downloadLlmCalls(range, filters, options)}
          />
        }
        description={
          // A count cut short before it found any match says nothing of how many there are.
          first && !(first.total_is_lower_bound && first.total === 0)
            ? `${first.total_is_lower_bound ? 'At least ' : ''}${formatCount(first.total)} ${first.total === 1 && !first.total_is_lower_bound ? 'call' : 'calls'}, newest first`
            : 'Newest first'
        }
      >
        <div className="space-y-4">
          <ActiveFilters filters={filters} onChange={setFilters} />
          {calls.isPending && <PanelSkeleton label={TITLE} rows={5} />}
          {calls.isError && !calls.data && (
            <PanelError message={panelErrorMessage(calls.error)} onRetry={() => void calls.refetch()} />
          )}
          {calls.data && rows.length === 0 && !searchedTo && (
            <PanelEmpty>No calls match these filters in this range.</PanelEmpty>
          )}
          {rows.length > 0 && (
            <ResponsiveTable
              aria-label="LLM calls"
              columns={COLUMNS}
              rows={rows}
              rowKey={(call) => call.id}
            />
          )}
          {searchedTo && (
            <p className="text-sm text-muted-foreground">
              Searched back to {formatDateTime(searchedTo)}: few calls match these filters. Show More Calls
              searches further back.
            </p>
          )}
          {calls.hasNextPage && (
            <Button
              variant="secondary"
              onClick={() => void calls.fetchNextPage()}
              disabled={calls.isFetchingNextPage}
            >
              {calls.isFetchingNextPage ? 'Loading...' : 'Show More Calls'}
            </Button>
          )}
        </div>
      </MetricCard>
    </div>
  );
}
