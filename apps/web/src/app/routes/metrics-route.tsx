import { SubjectActionsContext } from '@/features/metrics/components/subject-actions';
import { MetricsPage } from '@/features/metrics/components/metrics-page';
import { subjectLimits } from './subject-limits';

/**
 * /metrics: Metrics & Analytics, each top chat and user with its standing against the limits. Its recharts
 * charts load their code when they are drawn, as they come near the window: on a phone the first view has
 * none of them (docs/benchmarks.md, "The first signed-in load").
 */
export function MetricsRoute() {
  return (
    <SubjectActionsContext value={subjectLimits}>
      <MetricsPage />
    </SubjectActionsContext>
  );
}
