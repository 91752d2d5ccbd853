import { MetricsPage } from '@/features/metrics/components/metrics-page';

/** /metrics: Metrics & Analytics. */
export function MetricsRoute() {
  return <MetricsPage />;
}
