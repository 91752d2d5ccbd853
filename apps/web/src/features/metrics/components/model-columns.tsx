import type { ResponsiveColumn } from '@/components/ui/responsive-table';
import { modelName } from '../lib/latency-series';
import type { TimeRange } from '../lib/time-range';
import { CallsLink } from './calls-link';

type ModelRow = { provider: string; model: string };

/** A per-model table's first column: the provider and model, as the charts name them. */
export function modelColumn<Row extends ModelRow>(): ResponsiveColumn<Row> {
  return {
    header: 'Model',
    primary: true,
    cell: (row) => <span className="font-mono text-xs break-words">{modelName(row)}</span>,
  };
}

/** A per-model table's last column: the model's calls over the panel's range. */
export function modelCallsColumn<Row extends ModelRow>(range: TimeRange): ResponsiveColumn<Row> {
  return {
    header: 'Calls',
    headerHidden: true,
    cell: (row) => (
      <CallsLink filters={{ provider: row.provider, model: row.model }} range={range} name={modelName(row)} />
    ),
  };
}
