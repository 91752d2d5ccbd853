import type { SessionUser } from '@lumi/contract';
import { decodeJwt } from 'jose';
import { Bug, ChevronRight } from 'lucide-react';
import { Collapsible } from 'radix-ui';
import { useAuthStore } from '@/lib/auth-store';
import { formatDateTime } from '@/lib/format';
import { useHasPermission } from '@/lib/permissions';

/** When the access token expires, read from its claims; the token itself is never shown. */
function tokenExpiry(token: string | null): string {
  if (!token) return 'No access token in memory';
  try {
    const { exp } = decodeJwt(token);
    return exp
      ? `In memory, expires ${formatDateTime(new Date(exp * 1000).toISOString())}`
      : 'In memory, no expiry';
  } catch {
    return 'In memory, expiry unreadable';
  }
}

function permissionsOf(user: SessionUser | null): string[] {
  const granted = new Set(user?.roles.flatMap((role) => role.permissions) ?? []);
  return [...granted].sort().map((permission) => (permission === '*' ? 'all (*)' : permission));
}

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** Spec section 2: a small banner with the auth state the screen's checks see. */
export function DebugBanner() {
  const user = useAuthStore((state) => state.user);
  const canRead = useHasPermission('config:read');
  const canWrite = useHasPermission('config:write');
  return (
    <p className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md border border-dashed px-3 py-1.5 text-xs text-muted-foreground">
      <span className="inline-flex items-center gap-1 font-medium text-foreground">
        <Bug aria-hidden className="size-3.5" />
        Debug
      </span>
      <span>Signed in as {user?.username ?? 'nobody'}</span>
      <span>Roles: {user?.roles.map((role) => role.name).join(', ') || 'none'}</span>
      <span>config:read: {yesNo(canRead)}</span>
      <span>config:write: {yesNo(canWrite)}</span>
    </p>
  );
}

/** Spec section 2: the debug information section, collapsed until asked for. Never shows a token. */
export function DebugInfo() {
  const user = useAuthStore((state) => state.user);
  const accessToken = useAuthStore((state) => state.accessToken);
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const isLoading = useAuthStore((state) => state.isLoading);
  const rows: Array<[string, string]> = [
    ['User', user ? `${user.name} (@${user.username}, id ${user.id})` : 'None'],
    ['Email', user?.email || 'None'],
    ['Roles', user?.roles.map((role) => role.name).join(', ') || 'None'],
    ['Permissions', permissionsOf(user).join(', ') || 'None'],
    ['Authenticated', yesNo(isAuthenticated)],
    ['Auth loading', yesNo(isLoading)],
    ['Access token', tokenExpiry(accessToken)],
    ['Refresh token', 'HttpOnly cookie, not readable by the page'],
  ];
  return (
    <Collapsible.Root className="group mt-8 rounded-lg border bg-card">
      <Collapsible.Trigger className="flex w-full items-center gap-2 rounded-lg px-4 py-3 text-left text-sm font-medium hover:bg-muted/50">
        <ChevronRight aria-hidden className="size-4 transition-transform group-data-[state=open]:rotate-90" />
        Debug information
      </Collapsible.Trigger>
      <Collapsible.Content className="border-t px-4 py-3">
        <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="min-w-0 font-mono text-xs break-words sm:pt-0.5">{value}</dd>
            </div>
          ))}
        </dl>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
