import { SubjectLimitsBadge } from '@/features/limits/components/subject-limits-badge';
import type { MetricsSubject } from '@/features/metrics/components/subject-actions';

/** Beside a chat's or user's id on the Metrics screens: its standing against the limits. */
export function subjectLimits({ kind, id }: MetricsSubject) {
  return <SubjectLimitsBadge kind={kind} subject={id} />;
}
