import { FiringAlertsBanner } from '@/features/alerts/components/firing-alerts-banner';
import { OverviewPage } from '@/features/metrics/components/overview-page';

// The chart's code (recharts, the largest part of the screen) downloads beside the panels' data and is
// evaluated in a task of its own while they wait, so drawing the chart once the data is there takes less.
void import('@/features/metrics/components/llm-usage-chart');

/** /overview: the System Overview, with the firing alerts above its panels. */
export function OverviewRoute() {
  return <OverviewPage banner={<FiringAlertsBanner />} />;
}
