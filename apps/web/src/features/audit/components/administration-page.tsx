import { AccessDenied } from '@/components/ui/access-denied';
import { PageHeader } from '@/components/ui/page-header';
import { useHasPermission } from '@/lib/permissions';
import { AuditLogPanel } from './audit-log-panel';

/** The Administration screen (spec section 2): the audit log, for admin:audit:read only. */
export function AdministrationPage() {
  const canReadAudit = useHasPermission('admin:audit:read');
  if (!canReadAudit)
    return <AccessDenied>You don&apos;t have permission to view admin settings.</AccessDenied>;
  return (
    <div>
      <PageHeader title="Administration" />
      <AuditLogPanel />
    </div>
  );
}
