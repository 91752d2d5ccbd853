import { OverviewPage } from '@/features/metrics/components/overview-page';

/** /overview: the System Overview. */
export function OverviewRoute() {
  return <OverviewPage />;
}
