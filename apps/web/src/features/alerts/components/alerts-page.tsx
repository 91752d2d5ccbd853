import { Tabs } from 'radix-ui';
import { lazy } from 'react';
import { useSearchParams } from 'react-router';
import { AccessDenied } from '@/components/ui/access-denied';
import { PageHeader } from '@/components/ui/page-header';
import { LazyView, ViewTabList } from '@/components/ui/view-tabs';
import { useHasPermission } from '@/lib/permissions';
import { RulesView } from './rules-view';

// The views besides the rules are opened less often: each is its own chunk.
const ContactPointsView = lazy(() =>
  import('./contact-points-view').then((m) => ({ default: m.ContactPointsView })),
);
const SilencesView = lazy(() => import('./silences-view').then((m) => ({ default: m.SilencesView })));
const HistoryView = lazy(() => import('./history-view').then((m) => ({ default: m.HistoryView })));

const VIEWS = [
  { value: 'rules', label: 'Rules' },
  { value: 'contact-points', label: 'Contact points' },
  { value: 'silences', label: 'Silences' },
  { value: 'history', label: 'History' },
] as const;

type AlertsView = (typeof VIEWS)[number]['value'];

/**
 * The Alerts screen (docs/operators/console-guide.md, "Alerts"): rules with the firing and pending alerts
 * first, contact points, silences and the history of state changes. The view sits in the URL (?view=history),
 * so a link or a reload opens it.
 */
export function AlertsPage() {
  const canRead = useHasPermission('alerts:read');
  const [params, setParams] = useSearchParams();

  if (!canRead) {
    return <AccessDenied>You don&apos;t have permission to view alerts.</AccessDenied>;
  }

  const requested = params.get('view');
  const view: AlertsView = VIEWS.find((candidate) => candidate.value === requested)?.value ?? 'rules';
  // Each view has parameters of its own in the URL: another view starts without them.
  const selectView = (value: string) => setParams(value === 'rules' ? {} : { view: value });

  return (
    <div>
      <PageHeader title="Alerts" subtitle="Rules that watch the bot and tell you on Telegram or a webhook" />
      <Tabs.Root value={view} onValueChange={selectView}>
        <ViewTabList label="Alerts views" views={VIEWS} />
        <Tabs.Content value="rules" className="outline-none">
          <RulesView />
        </Tabs.Content>
        <Tabs.Content value="contact-points" className="outline-none">
          <LazyView label="Loading contact points">
            <ContactPointsView />
          </LazyView>
        </Tabs.Content>
        <Tabs.Content value="silences" className="outline-none">
          <LazyView label="Loading silences">
            <SilencesView />
          </LazyView>
        </Tabs.Content>
        <Tabs.Content value="history" className="outline-none">
          <LazyView label="Loading history">
            <HistoryView />
          </LazyView>
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
