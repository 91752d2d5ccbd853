import { FiringAlertsBanner } from '@/features/alerts/components/firing-alerts-banner';
import { isPhone } from '@/features/metrics/components/after-paint';
import { OverviewPage } from '@/features/metrics/components/overview-page';
import { useAfterPaint } from '@/lib/use-after-paint';

// The chart's code (recharts, the largest part of the screen) starts downloading once the screen's first
// view has painted, beside the panels' data, so drawing the chart once the data is there takes less. Not on
// a phone: there the chart is below the fold and loads as it comes near (after-paint.tsx), and recharts'
// download and start would share the first view's bandwidth and main thread.
const loadChart = () => {
  if (!isPhone()) void import('@/features/metrics/components/llm-usage-chart');
};

/** /overview: the System Overview, with the firing alerts above its panels. */
export function OverviewRoute() {
  useAfterPaint(loadChart);
  return <OverviewPage banner={<FiringAlertsBanner />} />;
}
