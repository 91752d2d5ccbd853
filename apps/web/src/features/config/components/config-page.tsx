import { AccessDenied } from '@/components/ui/access-denied';
import { PageHeader } from '@/components/ui/page-header';
import { useHasPermission } from '@/lib/permissions';
import { useConfigParams } from '../hooks/use-config-params';
import { DebugBanner, DebugInfo } from './debug-info';
import { DomainTabs } from './domain-tabs';

/**
 * Configuration Management (spec section 2). Wider than the spec, as the API is
 * (docs/bot-developers/configuration-api.md, "Managing items"): config:read alone shows the lists
 * read-only; config:write adds the controls; neither is denied.
 */
export function ConfigPage() {
  const canRead = useHasPermission('config:read');
  const canWrite = useHasPermission('config:write');
  const { tab, setTab } = useConfigParams();

  if (!canRead && !canWrite) {
    return (
      <AccessDenied>
        You don&apos;t have permission to access the configuration panel. Please contact an administrator.
      </AccessDenied>
    );
  }

  return (
    <div>
      <PageHeader
        title="Configuration Management"
        subtitle="Personalities, moods, feature flags and everything else that shapes how the bot behaves."
      />
      <DebugBanner />
      <DomainTabs tab={tab} onTabChange={setTab} canWrite={canWrite} />
      <DebugInfo />
    </div>
  );
}
