import { Tabs } from 'radix-ui';
import { useSearchParams } from 'react-router';
import { AccessDenied } from '@/components/ui/access-denied';
import { PageHeader } from '@/components/ui/page-header';
import { ViewTab, ViewTabList } from '@/components/ui/view-tabs';
import { ApiKeysSection } from '@/features/api-keys/components/api-keys-section';
import { AuditLogPanel } from '@/features/audit/components/audit-log-panel';
import { useHasPermission } from '@/lib/permissions';

const TABS = [
  { value: 'audit', label: 'Audit log', permission: 'admin:audit:read' },
  { value: 'api-keys', label: 'API keys', permission: 'admin:keys:write' },
] as const;

type AdminTab = (typeof TABS)[number]['value'];

/**
 * /admin: the Administration screen, one tab per area the user may use (the audit log, the bot's API keys).
 * The tab sits in the URL (?tab=api-keys), so a link or a reload opens the same one; the audit filters
 * share the query string and survive a tab switch.
 */
export function AdminRoute() {
  const canReadAudit = useHasPermission('admin:audit:read');
  const canManageKeys = useHasPermission('admin:keys:write');
  const [params, setParams] = useSearchParams();

  const allowed = TABS.filter((tab) =>
    tab.permission === 'admin:audit:read' ? canReadAudit : canManageKeys,
  );
  const first = allowed[0];
  if (!first) return <AccessDenied>You don&apos;t have permission to view admin settings.</AccessDenied>;

  const requested = params.get('tab');
  const tab: AdminTab = allowed.find((candidate) => candidate.value === requested)?.value ?? first.value;

  const selectTab = (value: string) =>
    setParams((previous) => {
      const updated = new URLSearchParams(previous);
      if (value === first.value) updated.delete('tab');
      else updated.set('tab', value);
      return updated;
    });

  return (
    <div>
      <PageHeader title="Administration" />
      <Tabs.Root value={tab} onValueChange={selectTab}>
        {allowed.length > 1 && <ViewTabList label="Administration sections" views={allowed} />}
        {canReadAudit && (
          <ViewTab value="audit">
            <AuditLogPanel />
          </ViewTab>
        )}
        {canManageKeys && (
          <ViewTab value="api-keys">
            <ApiKeysSection />
          </ViewTab>
        )}
      </Tabs.Root>
    </div>
  );
}
