import { Tabs } from 'radix-ui';
import { lazy } from 'react';
import { AccessDenied } from '@/components/ui/access-denied';
import { PageHeader } from '@/components/ui/page-header';
import { LazyViewTab, ViewTab, ViewTabList } from '@/components/ui/view-tabs';
import { useHasPermission } from '@/lib/permissions';
import { useViewParam } from '@/lib/url-filters';
import { LimitsView } from './limits-view';

// The views besides the limits are opened less often: each is its own chunk.
const AccessRulesView = lazy(() =>
  import('./access-rules-view').then((m) => ({ default: m.AccessRulesView })),
);
const DenialsView = lazy(() => import('./denials-view').then((m) => ({ default: m.DenialsView })));

const VIEWS = [
  { value: 'limits', label: 'Limits' },
  { value: 'access', label: 'Bans and allowlist' },
  { value: 'denials', label: 'Denials' },
] as const;

/**
 * The Limits screen (docs/operators/limits.md): spend and abuse control. Limits on the cost, tokens or
 * requests of chats, users and features with their usage now; bans and the allowlist; and the calls they
 * denied. Reading needs metrics:read, changing limits:write. The view sits in the URL (?view=denials), so
 * a link or a reload opens it.
 */
export function LimitsPage() {
  const canRead = useHasPermission('metrics:read');
  const [view, selectView] = useViewParam(VIEWS, 'limits');

  if (!canRead) {
    return <AccessDenied>You don&apos;t have permission to view limits.</AccessDenied>;
  }

  return (
    <div>
      <PageHeader
        title="Limits"
        subtitle="Caps on the cost, tokens and requests of chats, users and features; bans and the allowlist"
      />
      <Tabs.Root value={view} onValueChange={selectView}>
        <ViewTabList label="Limits views" views={VIEWS} />
        <ViewTab value="limits">
          <LimitsView />
        </ViewTab>
        <LazyViewTab value="access" label="Loading bans and allowlist" view={AccessRulesView} />
        <LazyViewTab value="denials" label="Loading denials" view={DenialsView} />
      </Tabs.Root>
    </div>
  );
}
