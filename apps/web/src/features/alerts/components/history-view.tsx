import { ALERT_SEVERITIES, ALERT_STATES, type AlertHistoryEntry } from '@lumi/contract';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { LoadMore } from '@/components/ui/load-more';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { SkeletonList } from '@/components/ui/skeleton';
import { ViewSection } from '@/components/ui/view-section';
import { useAlertHistory } from '../api/history';
import { useRules } from '../api/rules';
import { useHistoryFilters, type AlertHistoryFilters } from '../hooks/use-history-filters';
import { AlertStateBadge, SeverityBadge, SeverityOptions, STATE_LABELS } from './alert-badges';
import { RelativeTime } from './relative-time';
import { toLocalInput } from '@/lib/format';

/**
 * Alerts > History (docs/bot-developers/alerts.md, "States"): every state change with the value that caused
 * it, newest first, filtered by rule, state, severity and time (all in the URL), 50 at a time with Load more.
 */
export function HistoryView() {
  const { filters, setFilter, clearFilters } = useHistoryFilters();
  const history = useAlertHistory(filters);
  const rows = history.data?.pages.flatMap((page) => page.entries) ?? [];
  const filtered = Object.values(filters).some((value) => value !== null);

  return (
    <ViewSection
      id="history-heading"
      title="History"
      actions={
        filtered && (
          <Button variant="secondary" size="sm" onClick={clearFilters}>
            Clear filters
          </Button>
        )
      }
    >
      <HistoryFilters filters={filters} onChange={setFilter} />
      {history.isPending ? (
        <SkeletonList label="Loading history" rows={4} rowClassName="h-12" />
      ) : history.isError && !history.data ? (
        <LoadError title="Failed to load the history" query={history} />
      ) : rows.length === 0 ? (
        <EmptyState>{filtered ? 'No state changes match these filters' : 'No state changes yet.'}</EmptyState>
      ) : (
        <HistoryTable entries={rows} />
      )}
      <LoadMore pages={history} failure="Failed to load more of the history" />
    </ViewSection>
  );
}

function HistoryTable({ entries }: { entries: AlertHistoryEntry[] }) {
  return (
    <ResponsiveTable
      aria-label="State changes"
      rows={entries}
      rowKey={(entry) => entry.id}
      columns={[
        {
          header: 'Rule',
          primary: true,
          cell: (entry) => (
            <Link
              to={`/alerts?rule=${entry.rule_id}`}
              className="font-medium underline-offset-2 hover:underline"
            >
              {entry.rule_name}
            </Link>
          ),
        },
        { header: 'Time', cell: (entry) => <RelativeTime value={entry.at} /> },
        { header: 'Severity', cell: (entry) => <SeverityBadge severity={entry.severity} /> },
        {
          header: 'Change',
          cell: (entry) => (
            <span className="inline-flex flex-wrap items-center gap-1">
              <span className="text-xs text-muted-foreground">{STATE_LABELS[entry.from_state]}</span>
              <ArrowRight aria-label="to" className="size-3 text-muted-foreground" />
              <AlertStateBadge state={entry.to_state} />
              {entry.silenced && <Badge>Silenced</Badge>}
            </span>
          ),
        },
        {
          header: 'Value',
          className: 'max-w-80',
          cell: (entry) => <span className="break-words max-sm:text-right">{entry.summary}</span>,
        },
      ]}
    />
  );
}

function fromLocalInput(local: string): string | null {
  const at = new Date(local);
  return local && !Number.isNaN(at.getTime()) ? at.toISOString() : null;
}

interface HistoryFiltersProps {
  filters: AlertHistoryFilters;
  onChange: <K extends keyof AlertHistoryFilters>(name: K, value: AlertHistoryFilters[K]) => void;
}

/** Rule, state, severity and time range; each choice applies at once and lands in the URL. */
function HistoryFilters({ filters, onChange }: HistoryFiltersProps) {
  const rules = useRules();
  return (
    <div
      role="group"
      aria-label="Filter the history"
      className="grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-5"
    >
      <Field label="Rule">
        <Select
          value={filters.ruleId ?? ''}
          onChange={(event) => onChange('ruleId', event.target.value ? Number(event.target.value) : null)}
        >
          <option value="">All rules</option>
          {(rules.data?.rules ?? []).map((rule) => (
            <option key={rule.id} value={rule.id}>
              {rule.name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="New state">
        <Select
          value={filters.state ?? ''}
          onChange={(event) =>
            onChange('state', ALERT_STATES.find((state) => state === event.target.value) ?? null)
          }
        >
          <option value="">Any state</option>
          {ALERT_STATES.map((state) => (
            <option key={state} value={state}>
              {STATE_LABELS[state]}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Severity">
        <Select
          value={filters.severity ?? ''}
          onChange={(event) =>
            onChange('severity', ALERT_SEVERITIES.find((severity) => severity === event.target.value) ?? null)
          }
        >
          <option value="">Any severity</option>
          <SeverityOptions />
        </Select>
      </Field>
      <Field label="From">
        <Input
          type="datetime-local"
          value={toLocalInput(filters.from)}
          onChange={(event) => onChange('from', fromLocalInput(event.target.value))}
        />
      </Field>
      <Field label="To">
        <Input
          type="datetime-local"
          value={toLocalInput(filters.to)}
          onChange={(event) => onChange('to', fromLocalInput(event.target.value))}
        />
      </Field>
    </div>
  );
}
