import { OverviewPage } from '@/features/metrics/components/overview-page';

// The chart's code (recharts, the largest part of the screen) downloads beside the panels' data and is
// evaluated in a task of its own while they wait, so drawing the chart once the data is there takes less.
void import('@/features/metrics/components/llm-usage-chart');

/** /overview: the System Overview. */
export function OverviewRoute() {
  return <OverviewPage />;
}
