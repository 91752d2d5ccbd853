import { MetricsPage } from '@/features/metrics/components/metrics-page';

// As on the Overview (overview-route.tsx): the charts' code loads beside the data, not after it.
void import('@/features/metrics/components/llm-usage-chart');
void import('@/features/metrics/components/gemini-usage-chart');

/** /metrics: Metrics & Analytics. */
export function MetricsRoute() {
  return <MetricsPage />;
}
