import { CallPage } from '@/features/metrics/components/call-page';

/** /metrics/calls/:id: one LLM call. */
export function CallRoute() {
  return <CallPage />;
}
