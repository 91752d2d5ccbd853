import type { AuditLog } from '@lumi/contract';
import { ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '@/lib/format';
import { describeAction, describeActor } from '../lib/audit-actions';
import { formatRelativeTime } from '@/lib/relative-time';
import { resourceLink } from '../lib/resource-link';
import { AuditChanges } from './audit-changes';

/** One audit entry: who did what to which resource, when and from where, with its changes on demand. */
export function AuditLogEntry({ log }: { log: AuditLog }) {
  const kind = log.resource_type.replace(/_/g, ' ');
  const id = log.resource_id ? `#${log.resource_id}` : null;
  const link = resourceLink(log);
  const relative = formatRelativeTime(log.timestamp);
  // The changes are worked out once the entry's details are first opened: the diffs of fifty closed entries
  // were much of the Administration screen's first render on a phone (docs/benchmarks.md).
  const [opened, setOpened] = useState(false);
  // An entry off the screen skips style and layout until it comes near (CSS Containment 2,
  // content-visibility), as a phone's table cards do (components/ui/responsive-table.tsx).
  return (
    <li className="px-4 py-3 [contain-intrinsic-size:auto_5rem] [content-visibility:auto]">
      <p className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <span className="font-semibold">{describeActor(log)}</span>
        <span>{describeAction(log.action)}</span>
        <code className="rounded bg-muted px-1.5 py-0.5 text-xs text-muted-foreground">{log.action}</code>
      </p>
      <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
        <span className="min-w-0 break-words">
          Resource: {kind}{' '}
          {link ? (
            <Link to={link} title={id ?? undefined} className="text-primary underline underline-offset-2">
              {log.resource_name ?? id}
            </Link>
          ) : (
            <span title={log.resource_name ? (id ?? undefined) : undefined} className="text-foreground">
              {log.resource_name ?? id}
            </span>
          )}
        </span>
        <time dateTime={log.timestamp}>
          {formatDateTime(log.timestamp, log.timestamp)}
          {relative && ` (${relative})`}
        </time>
        {log.ip_address && <span>IP {log.ip_address}</span>}
      </p>
      <details className="group mt-2" onToggle={(event) => event.currentTarget.open && setOpened(true)}>
        <summary className="inline-flex cursor-pointer list-none items-center gap-1 rounded text-sm text-primary select-none [&::-webkit-details-marker]:hidden">
          <ChevronRight aria-hidden className="size-4 transition-transform group-open:rotate-90" />
          Details
        </summary>
        {opened && (
          <div className="mt-2 space-y-2">
            <AuditChanges oldValue={log.old_value} newValue={log.new_value} />
            {log.user_agent && (
              <p className="text-xs break-all text-muted-foreground">User agent: {log.user_agent}</p>
            )}
          </div>
        )}
      </details>
    </li>
  );
}
