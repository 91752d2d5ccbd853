import type { User } from '@lumi/contract';
import { UserPlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { AccessDenied } from '@/components/ui/access-denied';
import { Button } from '@/components/ui/button';
import { RetryAlert } from '@/components/ui/load-error';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { useAuthStore } from '@/lib/auth-store';
import { useHasPermission } from '@/lib/permissions';
import { useRoleOptions } from '../api/list-roles';
import { useUsers } from '../api/list-users';
import { useUserListParams } from '../hooks/use-user-list-params';
import { CreateUserDialog } from './create-user-dialog';
import { DeleteUserDialog } from './delete-user-dialog';
import { EditUserDialog } from './edit-user-dialog';
import { ResetTwoFactorDialog } from './reset-two-factor-dialog';
import { TemporaryPasswordDialog } from './temporary-password-dialog';
import { UserSessionsDialog } from './user-sessions-dialog';
import { UserSearch } from './user-search';
import { UsersTable, type SecurityAction } from './users-table';

type OpenDialog = { kind: 'create' } | { kind: 'edit' | 'delete' | SecurityAction; user: User } | null;

/** The Users screen (spec section 2, 'Users (/users)'). */
export function UsersPage() {
  const canRead = useHasPermission('users:read');
  const canWrite = useHasPermission('users:write');
  const currentUserId = useAuthStore((state) => state.user?.id);
  const { search, page, setSearch, setPage } = useUserListParams();
  const users = useUsers({ page, search }, canRead);
  const roles = useRoleOptions(canWrite);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const pages = users.data?.pages ?? 1;

  // A page that no longer exists (the last user on it was deleted, an old link) falls back to the last one.
  useEffect(() => {
    if (users.data && page > users.data.pages) setPage(users.data.pages);
  }, [users.data, page, setPage]);

  if (!canRead) return <AccessDenied>You don&apos;t have permission to view users.</AccessDenied>;

  const closeDialog = (open: boolean) => {
    if (!open) setDialog(null);
  };

  return (
    <div>
      <PageHeader
        title="Users"
        subtitle="Manage user accounts and permissions"
        actions={
          canWrite && (
            <Button onClick={() => setDialog({ kind: 'create' })}>
              <UserPlus aria-hidden />
              Add User
            </Button>
          )
        }
      />
      <div className="mb-4">
        <UserSearch value={search} onSearch={setSearch} />
      </div>
      {users.isError ? (
        <RetryAlert onRetry={() => void users.refetch()}>Failed to load users</RetryAlert>
      ) : (
        <UsersTable
          users={users.data?.users ?? []}
          isLoading={users.isPending}
          currentUserId={currentUserId}
          canWrite={canWrite}
          onEdit={(user) => setDialog({ kind: 'edit', user })}
          onDelete={(user) => setDialog({ kind: 'delete', user })}
          onSecurity={(user, kind) => setDialog({ kind, user })}
        />
      )}
      <Pagination page={Math.min(page, pages)} pages={pages} onPageChange={setPage} />

      {dialog?.kind === 'create' && <CreateUserDialog open onOpenChange={closeDialog} roles={roles} />}
      {dialog?.kind === 'edit' && (
        <EditUserDialog open onOpenChange={closeDialog} user={dialog.user} roles={roles} />
      )}
      {dialog?.kind === 'delete' && <DeleteUserDialog open onOpenChange={closeDialog} user={dialog.user} />}
      {dialog?.kind === 'sessions' && (
        <UserSessionsDialog open onOpenChange={closeDialog} user={dialog.user} canWrite={canWrite} />
      )}
      {dialog?.kind === 'reset-two-factor' && (
        <ResetTwoFactorDialog open onOpenChange={closeDialog} user={dialog.user} />
      )}
      {dialog?.kind === 'temporary-password' && (
        <TemporaryPasswordDialog open onOpenChange={closeDialog} user={dialog.user} />
      )}
    </div>
  );
}
