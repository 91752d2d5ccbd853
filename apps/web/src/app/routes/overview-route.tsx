import { FiringAlertsBanner } from '@/features/alerts/components/firing-alerts-banner';
import { OverviewPage } from '@/features/metrics/components/overview-page';
import { useAfterPaint } from '@/lib/use-after-paint';

// The chart's code (recharts, the largest part of the screen) starts downloading once the screen's first
// view has painted, beside the panels' data, so drawing the chart once the data is there takes less.
const loadChart = () => void import('@/features/metrics/components/llm-usage-chart');

/** /overview: the System Overview, with the firing alerts above its panels. */
export function OverviewRoute() {
  useAfterPaint(loadChart);
  return <OverviewPage banner={<FiringAlertsBanner />} />;
}
