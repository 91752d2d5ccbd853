import { CallPage } from '@/features/metrics/components/call-page';
import { SubjectActionsContext } from '@/features/metrics/components/subject-actions';
import { subjectLimits } from './subject-limits';

/** /metrics/calls/:id: one LLM call, its chat and user with their standing against the limits. */
export function CallRoute() {
  return (
    <SubjectActionsContext value={subjectLimits}>
      <CallPage />
    </SubjectActionsContext>
  );
}
