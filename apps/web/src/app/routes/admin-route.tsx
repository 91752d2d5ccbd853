import { PageHeader } from '@/components/ui/page-header';
import { ApiKeysSection } from '@/features/api-keys/components/api-keys-section';
import { AdministrationPage } from '@/features/audit/components/administration-page';
import { useHasPermission } from '@/lib/permissions';

/** /admin: the Administration screen with the audit log, and below it the bot's API keys for those who manage them. */
export function AdminRoute() {
  const canReadAudit = useHasPermission('admin:audit:read');
  const canManageKeys = useHasPermission('admin:keys:write');
  // Someone who manages keys without reading the audit log sees the keys alone, not an 'Access Denied'.
  if (!canReadAudit && canManageKeys) {
    return (
      <div>
        <PageHeader title="Administration" />
        <ApiKeysSection />
      </div>
    );
  }
  return (
    <>
      <AdministrationPage />
      <ApiKeysSection className="mt-10" />
    </>
  );
}
