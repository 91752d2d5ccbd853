import { Tabs } from 'radix-ui';
import { lazy } from 'react';
import { AccessDenied } from '@/components/ui/access-denied';
import { PageHeader } from '@/components/ui/page-header';
import { LazyViewTab, ViewTab, ViewTabList } from '@/components/ui/view-tabs';
import { useHasPermission } from '@/lib/permissions';
import { useViewParam } from '@/lib/url-filters';
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

/**
 * The Alerts screen (docs/operators/console-guide.md, "Alerts"): rules with the firing and pending alerts
 * first, contact points, silences and the history of state changes. The view sits in the URL (?view=history),
 * so a link or a reload opens it.
 */
export function AlertsPage() {
  const canRead = useHasPermission('alerts:read');
  const [view, selectView] = useViewParam(VIEWS, 'rules');

  if (!canRead) {
    return <AccessDenied>You don&apos;t have permission to view alerts.</AccessDenied>;
  }

  return (
    <div>
      <PageHeader title="Alerts" subtitle="Rules that watch the bot and tell you on Telegram or a webhook" />
      <Tabs.Root value={view} onValueChange={selectView}>
        <ViewTabList label="Alerts views" views={VIEWS} />
        <ViewTab value="rules">
          <RulesView />
        </ViewTab>
        <LazyViewTab value="contact-points" label="Loading contact points" view={ContactPointsView} />
        <LazyViewTab value="silences" label="Loading silences" view={SilencesView} />
        <LazyViewTab value="history" label="Loading history" view={HistoryView} />
      </Tabs.Root>
    </div>
  );
}
