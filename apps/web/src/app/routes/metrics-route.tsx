import { SubjectActionsContext } from '@/features/metrics/components/subject-actions';
import { MetricsPage } from '@/features/metrics/components/metrics-page';
import { subjectLimits } from './subject-limits';

// As on the Overview (overview-route.tsx): the charts' code loads beside the data, not after it.
void import('@/features/metrics/components/llm-usage-chart');
void import('@/features/metrics/components/gemini-usage-chart');

/** /metrics: Metrics & Analytics, each top chat and user with its standing against the limits. */
export function MetricsRoute() {
  return (
    <SubjectActionsContext value={subjectLimits}>
      <MetricsPage />
    </SubjectActionsContext>
  );
}
