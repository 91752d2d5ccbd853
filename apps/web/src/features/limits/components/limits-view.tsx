import type { Limit } from '@lumi/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from '@/lib/toast';
import { AddButton } from '@/components/ui/add-button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { LoadMore } from '@/components/ui/load-more';
import { ResponsiveTable, type ResponsiveColumn } from '@/components/ui/responsive-table';
import { DeleteButton, EditButton } from '@/components/ui/row-actions';
import { SkeletonList } from '@/components/ui/skeleton';
import { ViewSection } from '@/components/ui/view-section';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useHasPermission } from '@/lib/permissions';
import { useDeleteLimit } from '../api/delete-limit';
import { useLimits } from '../api/list-limits';
import { DENIAL_PARAMS } from '../hooks/use-denial-filters';
import {
  activeRaise,
  describeLimit,
  describeUsageSubject,
  describeWho,
  formatAmount,
} from '../lib/limit-text';
import { ModeBadge } from './limit-badges';
import { LimitDialog } from './limit-dialog';
import { UsageBar } from './usage-bar';

/** A limit in words, for names and questions: "Chat -100123, $5.00 per day". */
export function limitName(limit: Limit): string {
  return `${describeWho(limit.scope, limit.subject)}, ${describeLimit(limit)}`;
}

function AmountCell({ limit }: { limit: Limit }) {
  const raise = activeRaise(limit);
  return (
    <span className="max-sm:text-right">
      <span className="block whitespace-nowrap">{describeLimit(limit)}</span>
      {raise && (
        <span className="block text-xs text-muted-foreground">
          Raised to {formatAmount(limit.metric, raise.amount)} until {formatDateTime(raise.until)}
        </span>
      )}
    </span>
  );
}

function UsageCell({ limit }: { limit: Limit }) {
  if (limit.usage.length === 0) {
    return <span className="text-xs text-muted-foreground">No use yet in this window</span>;
  }
  // A limit on one subject has its own usage; each chat's or user's lists those nearest it, named.
  const named = limit.scope === 'each_chat' || limit.scope === 'each_user';
  return (
    <div className="w-full space-y-2 sm:w-56 max-sm:max-w-[65%]">
      {limit.usage.map((usage) => {
        const who = describeUsageSubject(limit.scope, usage.subject);
        return (
          <UsageBar
            key={usage.subject}
            label={`${who}: ${describeLimit(limit)}`}
            subject={named ? who : undefined}
            metric={limit.metric}
            used={usage.used}
            amount={usage.amount}
          />
        );
      })}
    </div>
  );
}

function DenialsCell({ limit }: { limit: Limit }) {
  if (limit.denials_24h === 0) return <span className="text-muted-foreground">0</span>;
  const search = new URLSearchParams({ view: 'denials', [DENIAL_PARAMS.limitId]: String(limit.id) });
  return (
    <Link
      to={{ search: `?${search.toString()}` }}
      aria-label={`${limit.denials_24h} denied in 24 hours by ${limitName(limit)}: show them`}
      className="font-medium text-primary underline-offset-2 hover:underline"
    >
      {limit.denials_24h.toLocaleString()}
    </Link>
  );
}

interface LimitsTableProps {
  limits: Limit[];
  canWrite: boolean;
  onEdit: (limit: Limit) => void;
  onDelete: (limit: Limit) => void;
}

function LimitsTable({ limits, canWrite, onEdit, onDelete }: LimitsTableProps) {
  const columns: ResponsiveColumn<Limit>[] = [
    {
      header: 'Applies to',
      primary: true,
      cell: (limit) => (
        <span>
          <span className="font-medium">{describeWho(limit.scope, limit.subject)}</span>
          {limit.note && (
            <span dir="auto" className="block w-fit max-w-64 text-xs break-words text-muted-foreground">
              {limit.note}
            </span>
          )}
        </span>
      ),
    },
    { header: 'Limit', cell: (limit) => <AmountCell limit={limit} /> },
    { header: 'Mode', cell: (limit) => <ModeBadge mode={limit.mode} /> },
    { header: 'Usage now', cell: (limit) => <UsageCell limit={limit} /> },
    { header: 'Denied (24 h)', numeric: true, cell: (limit) => <DenialsCell limit={limit} /> },
  ];
  if (canWrite) {
    columns.push({
      header: 'Actions',
      headerHidden: true,
      cornerButtons: 2,
      cell: (limit) => (
        <div className="flex justify-end">
          <EditButton label={`Edit limit: ${limitName(limit)}`} onClick={() => onEdit(limit)} />
          <DeleteButton label={`Delete limit: ${limitName(limit)}`} onClick={() => onDelete(limit)} />
        </div>
      ),
    });
  }
  return <ResponsiveTable aria-label="Limits" columns={columns} rows={limits} rowKey={(limit) => limit.id} />;
}

/**
 * Limits > Limits (docs/operators/limits.md): each limit with who it is on, its amount and window, a raise
 * in force, its mode, the usage now as bars (amber from 80 %, red from 100 %) and the calls it denied in
 * the last 24 hours, 50 at a time. Changing needs limits:write.
 */
export function LimitsView() {
  const limits = useLimits();
  const rows = limits.data?.pages.flatMap((page) => page.limits) ?? [];
  const total = limits.data?.pages[0]?.total ?? 0;
  const canWrite = useHasPermission('limits:write');
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Limit | null>(null);
  const [deleting, setDeleting] = useState<Limit | null>(null);
  const create = canWrite ? () => setCreating(true) : undefined;

  return (
    <ViewSection
      id="limits-heading"
      title="Limits"
      description={
        'Over a soft limit calls go on and it shows as reached; over a hard one they are denied.' +
        (rows.length < total ? ` Showing ${rows.length.toLocaleString()} of ${total.toLocaleString()}.` : '')
      }
      actions={create && rows.length > 0 && <AddButton onClick={create}>Add Limit</AddButton>}
    >
      {limits.isPending ? (
        <SkeletonList label="Loading limits" rows={4} rowClassName="h-14" />
      ) : !limits.data ? (
        <LoadError title="Failed to load the limits" query={limits} />
      ) : rows.length === 0 ? (
        <EmptyState>
          No limits yet. A limit caps the cost, tokens or requests of a chat, a user or a feature, or of each
          chat or user.
          {create && (
            <span className="mt-3 block">
              <AddButton onClick={create}>Add Limit</AddButton>
            </span>
          )}
        </EmptyState>
      ) : (
        <LimitsTable limits={rows} canWrite={canWrite} onEdit={setEditing} onDelete={setDeleting} />
      )}
      <LoadMore pages={limits} failure="Failed to load more limits" />
      {creating && <LimitDialog onClose={() => setCreating(false)} />}
      {editing && <LimitDialog limit={editing} onClose={() => setEditing(null)} />}
      {deleting && <DeleteLimitDialog limit={deleting} onClose={() => setDeleting(null)} />}
    </ViewSection>
  );
}

function DeleteLimitDialog({ limit, onClose }: { limit: Limit; onClose: () => void }) {
  const remove = useDeleteLimit();
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Delete this limit?"
      description={`${limitName(limit)}: it stops applying at once. The calls it denied stay listed under Denials.`}
      confirmLabel="Delete Limit"
      pendingLabel="Deleting..."
      pending={remove.isPending}
      error={remove.error ? errorMessage(remove.error, 'Failed to delete the limit') : null}
      onConfirm={() =>
        remove.mutate(limit.id, {
          onSuccess: () => {
            toast.success('Limit deleted');
            onClose();
          },
        })
      }
    />
  );
}
