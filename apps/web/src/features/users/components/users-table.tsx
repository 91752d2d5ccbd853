import type { User } from '@lumi/contract';
import { Ellipsis } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { EmailAddress } from '@/components/ui/email-address';
import { StateBadge } from '@/components/ui/state-badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { DeleteButton, EditButton } from '@/components/ui/row-actions';
import { ActionsTh, EmptyRow, SkeletonRows, Table, Td, Th } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';

const SKELETON_ROWS = 5;
/** Below this breakpoint the Roles, Status and Last Login columns fold into the User cell. */
const WIDE_ONLY = 'hidden md:table-cell';
const placeholderCell = (cell: number) => (cell === 0 || cell === 4 ? undefined : WIDE_ONLY);

interface UsersTableProps {
  users: User[];
  isLoading: boolean;
  currentUserId: number | undefined;
  /** Edit and delete controls appear only for users:write. */
  canWrite: boolean;
  onEdit: (user: User) => void;
  onDelete: (user: User) => void;
  /**
   * The account security actions (docs/operators/console-guide.md, "Users"): sessions (users:read), reset
   * two-factor and password.
   */
  onSecurity: (user: User, action: SecurityAction) => void;
}

export type SecurityAction = 'sessions' | 'reset-two-factor' | 'temporary-password';

export function UsersTable(props: UsersTableProps) {
  const { users, isLoading, currentUserId, canWrite } = props;
  const columns = 5;
  return (
    <Table aria-busy={isLoading}>
      <caption className="sr-only">Users</caption>
      <thead>
        <tr>
          <Th>User</Th>
          <Th className={WIDE_ONLY}>Roles</Th>
          <Th className={WIDE_ONLY}>Status</Th>
          <Th className={WIDE_ONLY}>Last Login</Th>
          <ActionsTh />
        </tr>
      </thead>
      <tbody>
        {isLoading && <SkeletonRows rows={SKELETON_ROWS} columns={columns} cellClassName={placeholderCell} />}
        {!isLoading && users.length === 0 && <EmptyRow columns={columns}>No users found</EmptyRow>}
        {!isLoading &&
          users.map((user) => (
            <UserRow
              key={user.id}
              user={user}
              isSelf={user.id === currentUserId}
              canWrite={canWrite}
              onEdit={props.onEdit}
              onDelete={props.onDelete}
              onSecurity={props.onSecurity}
            />
          ))}
      </tbody>
    </Table>
  );
}

function RoleBadges({ user }: { user: User }) {
  return user.roles.map((role) => (
    <Badge key={role.id} variant="primary">
      {role.name}
    </Badge>
  ));
}

interface UserRowProps {
  user: User;
  isSelf: boolean;
  canWrite: boolean;
  onEdit: (user: User) => void;
  onDelete: (user: User) => void;
  onSecurity: (user: User, action: SecurityAction) => void;
}

/**
 * Badges for the account's security state (docs/operators/security.md), in words so colour is not the only
 * signal.
 */
function SecurityBadges({ user }: { user: User }) {
  return (
    <>
      {user.two_factor_enabled && <Badge variant="success">Two-factor</Badge>}
      {user.password_change_required && <Badge variant="warning">Temporary password</Badge>}
    </>
  );
}

function UserRow({ user, isSelf, canWrite, onEdit, onDelete, onSecurity }: UserRowProps) {
  const lastLogin = formatDateTime(user.last_login, 'Never');
  return (
    <tr className="hover:bg-muted/40">
      <Td>
        <div className="font-medium">
          {user.name}
          {isSelf && <span className="ml-1 text-xs font-normal text-muted-foreground">(you)</span>}
        </div>
        <div className="text-muted-foreground">
          <EmailAddress email={user.email} />
        </div>
        <div className="text-xs text-muted-foreground">@{user.username}</div>
        <div className="mt-2 flex flex-wrap items-center gap-1 md:hidden">
          <StateBadge on={user.is_active} />
          <SecurityBadges user={user} />
          <RoleBadges user={user} />
        </div>
        <div className="mt-1 text-xs text-muted-foreground md:hidden">Last Login: {lastLogin}</div>
      </Td>
      <Td className={WIDE_ONLY}>
        <div className="flex flex-wrap gap-1">
          <RoleBadges user={user} />
        </div>
      </Td>
      <Td className={WIDE_ONLY}>
        <div className="flex flex-wrap gap-1">
          <StateBadge on={user.is_active} />
          <SecurityBadges user={user} />
        </div>
      </Td>
      <Td className={`${WIDE_ONLY} whitespace-nowrap text-muted-foreground`}>{lastLogin}</Td>
      <Td className="text-right whitespace-nowrap">
        {canWrite && (
          <>
            {/* Spec section 6: the signed-in user cannot edit or delete their own row. */}
            <EditButton label={`Edit ${user.username}`} disabled={isSelf} onClick={() => onEdit(user)} />
            <DeleteButton
              label={`Delete ${user.username}`}
              disabled={isSelf}
              onClick={() => onDelete(user)}
            />
          </>
        )}
        <DropdownMenu modal={false}>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon" aria-label={`More actions for ${user.username}`}>
              <Ellipsis aria-hidden />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem onSelect={() => onSecurity(user, 'sessions')}>Sessions</DropdownMenuItem>
            {/* Your own account is managed from Profile; the server refuses these for it (403). */}
            {canWrite && !isSelf && user.two_factor_enabled && (
              <DropdownMenuItem onSelect={() => onSecurity(user, 'reset-two-factor')}>
                Reset two-factor
              </DropdownMenuItem>
            )}
            {canWrite && !isSelf && (
              <DropdownMenuItem onSelect={() => onSecurity(user, 'temporary-password')}>
                Set temporary password
              </DropdownMenuItem>
            )}
          </DropdownMenuContent>
        </DropdownMenu>
      </Td>
    </tr>
  );
}
