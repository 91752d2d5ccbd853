import type { AuthSession } from '@lumi/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { Monitor } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format';

/** "Firefox 133 on macOS", or what part of it the user agent told. */
export function deviceName(session: AuthSession): string {
  if (session.browser && session.os) return `${session.browser} on ${session.os}`;
  return session.browser ?? session.os ?? 'Unknown browser';
}

interface SessionListProps {
  sessions: AuthSession[];
  /** Names the list for screen readers ("Your sessions"). */
  label: string;
  /** Whether to mark the session this request came from ("This device"): only for the user's own list. */
  markCurrent?: boolean;
  /** The controls at the end of a session's row (a Sign out button). */
  actions?: (session: AuthSession) => ReactNode;
}

/** Sessions shown before "Show all": someone signed in on many devices still sees a short list first. */
export const SESSIONS_SHOWN = 5;

/**
 * Signed-in sessions, as a list that wraps on a phone: the device, when it signed in and was last used,
 * and from which address. This device comes first; past SESSIONS_SHOWN the rest wait behind "Show all".
 */
export function SessionList({ sessions, label, markCurrent = false, actions }: SessionListProps) {
  const [all, setAll] = useState(false);
  const ordered = markCurrent
    ? [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)]
    : sessions;
  const shown = all ? ordered : ordered.slice(0, SESSIONS_SHOWN);
  return (
    <div className="space-y-2">
      <ul aria-label={label} className="divide-y rounded-md border">
        {shown.map((session) => (
          <li key={session.id} className="flex flex-wrap items-start justify-between gap-3 p-3">
            <div className="flex min-w-0 gap-3">
              <Monitor aria-hidden className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
              <div className="min-w-0 text-sm">
                <div className="flex flex-wrap items-center gap-2 font-medium">
                  <span className="break-words">{deviceName(session)}</span>
                  {markCurrent && session.current && <Badge variant="primary">This device</Badge>}
                </div>
                <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-xs text-muted-foreground">
                  <dt>Signed in</dt>
                  <dd>{formatDateTime(session.created_at)}</dd>
                  <dt>Last used</dt>
                  <dd>{formatDateTime(session.last_used_at)}</dd>
                  <dt>Address</dt>
                  <dd className="break-all">{session.ip_address ?? 'Unknown'}</dd>
                </dl>
              </div>
            </div>
            {actions?.(session)}
          </li>
        ))}
      </ul>
      {ordered.length > SESSIONS_SHOWN && (
        <Button variant="secondary" size="sm" aria-expanded={all} onClick={() => setAll((v) => !v)}>
          {all ? `Show the first ${SESSIONS_SHOWN} only` : `Show all ${ordered.length} sessions`}
        </Button>
      )}
    </div>
  );
}

interface SessionsViewProps extends Omit<SessionListProps, 'sessions'> {
  query: UseQueryResult<{ sessions: AuthSession[] }>;
  /** What to say when there are none. */
  empty: string;
}

/** A sessions query as the list, or its loading, failed (with Retry) or empty state. */
export function SessionsView({ query, empty, ...list }: SessionsViewProps) {
  if (query.isPending) return <Skeleton role="status" aria-label="Loading sessions" className="h-24" />;
  if (query.isError) {
    return <LoadError title="Failed to load sessions" query={query} />;
  }
  if (query.data.sessions.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return <SessionList sessions={query.data.sessions} {...list} />;
}
