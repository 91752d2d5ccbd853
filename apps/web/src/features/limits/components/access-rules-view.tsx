import type { AccessRule } from '@lumi/contract';
import { Clock } from 'lucide-react';
import { useState } from 'react';
import { toast } from '@/lib/toast';
import { AddButton } from '@/components/ui/add-button';
import { Badge } from '@/components/ui/badge';
import { ConfirmDialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { LoadMore } from '@/components/ui/load-more';
import { ResponsiveTable, type ResponsiveColumn } from '@/components/ui/responsive-table';
import { DeleteButton } from '@/components/ui/row-actions';
import { SkeletonList } from '@/components/ui/skeleton';
import { ViewSection } from '@/components/ui/view-section';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { useHasPermission } from '@/lib/permissions';
import { useDeleteAccessRule } from '../api/delete-access-rule';
import { useAccessRules } from '../api/list-access-rules';
import { describeSubject } from '../lib/limit-text';
import { AccessActionBadge } from './limit-badges';
import { AccessRuleDialog } from './access-rule-dialog';

/** An entry in words: "Ban of Chat -100123". */
function ruleName(rule: AccessRule): string {
  return `${rule.action === 'ban' ? 'Ban of' : 'Allowlist entry of'} ${describeSubject(rule.subject_kind, rule.subject)}`;
}

/** An expired entry decides nothing: its cells are greyed, and its expiry says so in words. */
const faded = (rule: AccessRule) => cn(!rule.active && 'text-muted-foreground');

function ExpiresCell({ rule }: { rule: AccessRule }) {
  if (!rule.expires_at) return <span>Never</span>;
  return (
    <span className="inline-flex flex-wrap items-center justify-end gap-1 sm:justify-start">
      {!rule.active && (
        <Badge>
          <Clock aria-hidden className="size-3" />
          Expired
        </Badge>
      )}
      <span className={cn('whitespace-nowrap', faded(rule))}>{formatDateTime(rule.expires_at)}</span>
    </span>
  );
}

function RulesTable({ rules, onDelete }: { rules: AccessRule[]; onDelete?: (rule: AccessRule) => void }) {
  const columns: ResponsiveColumn<AccessRule>[] = [
    {
      header: 'Chat or user',
      primary: true,
      cell: (rule) => (
        <span className={cn('font-medium', faded(rule))}>
          {describeSubject(rule.subject_kind, rule.subject)}
        </span>
      ),
    },
    {
      header: 'Action',
      cell: (rule) => (
        <span className={cn(!rule.active && 'opacity-60')}>
          <AccessActionBadge action={rule.action} />
        </span>
      ),
    },
    {
      header: 'Reason',
      className: 'sm:max-w-72',
      cell: (rule) => (
        <span dir="auto" className={cn('[overflow-wrap:anywhere]', faded(rule))}>
          {rule.reason}
        </span>
      ),
    },
    { header: 'Expires', cell: (rule) => <ExpiresCell rule={rule} /> },
    {
      header: 'Added',
      className: 'text-xs whitespace-nowrap',
      cell: (rule) => (
        <span className={faded(rule)}>
          {formatDateTime(rule.created_at)}
          {rule.created_by && <span className="block text-muted-foreground">by {rule.created_by}</span>}
        </span>
      ),
    },
  ];
  if (onDelete) {
    columns.push({
      header: 'Actions',
      headerHidden: true,
      cell: (rule) => (
        <div className="flex justify-end">
          <DeleteButton label={`Delete ${ruleName(rule)}`} onClick={() => onDelete(rule)} />
        </div>
      ),
    });
  }
  return (
    <ResponsiveTable
      aria-label="Bans and allowlist"
      columns={columns}
      rows={rules}
      rowKey={(rule) => rule.id}
    />
  );
}

/**
 * Limits > Bans and allowlist (docs/operators/limits.md): a banned chat or user has every call denied; an
 * allowlisted one is held to no limit (a ban still wins). Each entry has a reason and may expire; an
 * expired one stays listed, greyed, until deleted; 50 at a time, newest first. Changing needs limits:write.
 */
export function AccessRulesView() {
  const rules = useAccessRules();
  const rows = rules.data?.pages.flatMap((page) => page.rules) ?? [];
  const total = rules.data?.pages[0]?.total ?? 0;
  const canWrite = useHasPermission('limits:write');
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<AccessRule | null>(null);

  return (
    <ViewSection
      id="access-rules-heading"
      title="Bans and allowlist"
      description={
        'Ban: every call of the chat or user is denied. Allow: no limit applies to it; a ban still wins.' +
        (rows.length < total ? ` Showing ${rows.length.toLocaleString()} of ${total.toLocaleString()}.` : '')
      }
      actions={canWrite && <AddButton onClick={() => setAdding(true)}>Add Entry</AddButton>}
    >
      {rules.isPending ? (
        <SkeletonList label="Loading bans and allowlist" rows={3} rowClassName="h-12" />
      ) : !rules.data ? (
        <LoadError title="Failed to load the bans and allowlist" query={rules} />
      ) : rows.length === 0 ? (
        <EmptyState>No chat or user is banned or allowlisted.</EmptyState>
      ) : (
        <RulesTable rules={rows} onDelete={canWrite ? setDeleting : undefined} />
      )}
      <LoadMore pages={rules} failure="Failed to load more entries" />
      {adding && <AccessRuleDialog onClose={() => setAdding(false)} />}
      {deleting && <DeleteRuleDialog rule={deleting} onClose={() => setDeleting(null)} />}
    </ViewSection>
  );
}

function DeleteRuleDialog({ rule, onClose }: { rule: AccessRule; onClose: () => void }) {
  const remove = useDeleteAccessRule();
  const who = describeSubject(rule.subject_kind, rule.subject);
  const ban = rule.action === 'ban';
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={ban ? 'Delete this ban?' : 'Delete this allowlist entry?'}
      description={
        !rule.active
          ? `${who}: the entry has expired and decides nothing any more.`
          : ban
            ? `${who} may make calls again, within its limits.`
            : `${who} is held to the limits again.`
      }
      confirmLabel="Delete Entry"
      pendingLabel="Deleting..."
      pending={remove.isPending}
      error={remove.error ? errorMessage(remove.error, 'Failed to delete the entry') : null}
      onConfirm={() =>
        remove.mutate(rule.id, {
          onSuccess: () => {
            toast.success(ban ? 'Ban deleted' : 'Allowlist entry deleted');
            onClose();
          },
        })
      }
    />
  );
}
