import type { AccessSubjectKind, SubjectLimits } from '@lumi/contract';
import { Gauge, X } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useHasPermission } from '@/lib/permissions';
import { useSubjectLimits } from '../api/get-subject-limits';
import { describeLimit, describeSubject, describeWho } from '../lib/limit-text';
import { AccessActionBadge, ModeBadge } from './limit-badges';
import { UsageBar } from './usage-bar';

function Standing({ standing }: { standing: SubjectLimits }) {
  const { rule, limits } = standing;
  return (
    <div className="space-y-3">
      {rule && (
        <div className="space-y-1 text-sm">
          <p className="flex flex-wrap items-center gap-2">
            <AccessActionBadge action={rule.action} />
            <span className="text-xs text-muted-foreground">
              {rule.expires_at ? `until ${formatDateTime(rule.expires_at)}` : 'until deleted'}
            </span>
          </p>
          <p dir="auto" className="text-xs break-words">
            {rule.reason}
          </p>
          {rule.action === 'allow' && (
            <p className="text-xs text-muted-foreground">Allowlisted: no limit below applies.</p>
          )}
        </div>
      )}
      {limits.length === 0 ? (
        <p className="text-sm text-muted-foreground">No limit applies.</p>
      ) : (
        <ul className="space-y-3" aria-label="Limits that apply">
          {limits.map((limit) => {
            const name = `${describeWho(limit.scope, limit.subject)}: ${describeLimit(limit)}`;
            return (
              <li key={limit.id} className="space-y-1">
                <p className="flex flex-wrap items-center justify-between gap-2 text-xs">
                  <span className="font-medium">{name}</span>
                  <ModeBadge mode={limit.mode} />
                </p>
                <UsageBar label={name} metric={limit.metric} used={limit.used} amount={limit.amount} />
                <p className="text-xs text-muted-foreground">
                  This window ends {formatDateTime(limit.window_end)}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

interface SubjectLimitsBadgeProps {
  kind: AccessSubjectKind;
  /** The chat's or user's Telegram id. */
  subject: string;
}

/**
 * A chat's or user's standing against the limits, for a row that names one (top chats, a call): an icon
 * button that opens a card with its ban or allowlist entry and each limit on it with its usage now,
 * asked for only when opened. Shown to those who may read the limits (metrics:read).
 */
export function SubjectLimitsBadge({ kind, subject }: SubjectLimitsBadgeProps) {
  const canRead = useHasPermission('metrics:read');
  const [open, setOpen] = useState(false);
  const standing = useSubjectLimits(kind, subject, open);
  const titleId = useId();
  if (!canRead) return null;
  const who = describeSubject(kind, subject);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className="h-7 px-1.5"
          aria-label={`Limits for ${who.toLowerCase()}`}
        >
          <Gauge aria-hidden />
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          role="dialog"
          aria-labelledby={titleId}
          align="start"
          sideOffset={4}
          collisionPadding={8}
          className="z-50 w-80 max-w-[calc(100vw-1rem)] space-y-3 rounded-lg border bg-card p-4 text-card-foreground shadow-lg"
        >
          <div className="flex items-start justify-between gap-2">
            <h2 id={titleId} className="text-sm font-semibold">
              Limits for {who}
            </h2>
            <Popover.Close asChild>
              <Button variant="ghost" size="sm" className="-mt-1 -mr-2 h-7 px-1.5" aria-label="Close">
                <X aria-hidden />
              </Button>
            </Popover.Close>
          </div>
          {standing.isPending ? (
            <div role="status" aria-label={`Loading the limits for ${who}`} className="space-y-2">
              <Skeleton className="h-4 w-full" />
              <Skeleton className="h-4 w-2/3" />
            </div>
          ) : standing.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {errorMessage(standing.error, 'Failed to load the limits')}
            </p>
          ) : (
            <Standing standing={standing.data} />
          )}
          <Link
            to="/limits"
            className="block text-xs font-medium text-primary underline-offset-2 hover:underline"
          >
            All limits
          </Link>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
