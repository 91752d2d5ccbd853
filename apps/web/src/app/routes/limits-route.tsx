import { LimitsPage } from '@/features/limits/components/limits-page';

/** /limits: limits on spend and requests, bans and the allowlist, and the calls they denied. */
export function LimitsRoute() {
  return <LimitsPage />;
}
