import { AdministrationPage } from '@/features/audit/components/administration-page';

/** /admin: the Administration screen with the audit log. */
export function AdminRoute() {
  return <AdministrationPage />;
}
