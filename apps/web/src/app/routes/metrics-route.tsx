import { SubjectActionsContext } from '@/features/metrics/components/subject-actions';
import { MetricsPage } from '@/features/metrics/components/metrics-page';
import { subjectLimits } from './subject-limits';
import { useAfterPaint } from '@/lib/use-after-paint';

// As on the Overview (overview-route.tsx): the charts' code loads beside the data, after the first paint.
const loadCharts = () => {
  void import('@/features/metrics/components/llm-usage-chart');
  void import('@/features/metrics/components/gemini-usage-chart');
  void import('@/features/metrics/components/change-markers');
};

/** /metrics: Metrics & Analytics, each top chat and user with its standing against the limits. */
export function MetricsRoute() {
  useAfterPaint(loadCharts);
  return (
    <SubjectActionsContext value={subjectLimits}>
      <MetricsPage />
    </SubjectActionsContext>
  );
}
