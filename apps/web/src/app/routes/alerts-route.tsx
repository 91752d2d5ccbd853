import { AlertsPage } from '@/features/alerts/components/alerts-page';

/** /alerts: alert rules, contact points, silences and history. */
export function AlertsRoute() {
  return <AlertsPage />;
}
