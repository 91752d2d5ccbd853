import type { AlertRule } from '@lumi/contract';
import { useState, type ReactNode } from 'react';
import { toast } from '@/lib/toast';
import { Alert } from '@/components/ui/alert';
import { AddButton } from '@/components/ui/add-button';
import { LoadError } from '@/components/ui/load-error';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { ConfirmDialog } from '@/components/ui/dialog';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { Skeleton } from '@/components/ui/skeleton';
import { ViewSection } from '@/components/ui/view-section';
import { errorMessage } from '@/lib/api-client';
import { useHasPermission } from '@/lib/permissions';
import { usePainted } from '@/lib/use-painted';
import { useDeleteRule, useRules, useUpdateRule } from '../api/rules';
import { useOpenRule } from '../hooks/use-open-rule';
import { describeCondition } from '../lib/conditions';
import { AlertFocus, AlertFocusFrame } from './alert-focus';
import { RuleStateBadge, SeverityBadge } from './alert-badges';
import { RelativeTime } from './relative-time';
import { RuleCard } from './rule-card';
import { RuleDialog } from './rule-dialog';

const SEVERITY_ORDER = { critical: 0, warning: 1 } as const;
const STATE_ORDER = { firing: 0, pending: 1, ok: 2 } as const;

/** Firing before pending, critical before warning, the longest first. */
function byUrgency(a: AlertRule, b: AlertRule): number {
  return (
    STATE_ORDER[a.state] - STATE_ORDER[b.state] ||
    SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
    (a.state_since ?? '').localeCompare(b.state_since ?? '')
  );
}

/**
 * Alerts > Rules (docs/operators/console-guide.md, "Alerts"): the firing and pending alerts first, then every
 * rule with its condition in words, state, last value and last change. ?rule=<id> (an alert's link) shows
 * that rule first: what fired, since when and what to do (alert-focus.tsx). Changing needs alerts:write.
 */
export function RulesView() {
  const rules = useRules();
  const canWrite = useHasPermission('alerts:write');
  const { openRuleId, setOpenRuleId } = useOpenRule();
  const [creating, setCreating] = useState(false);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<AlertRule | null>(null);

  const all = rules.data?.rules ?? [];
  const active = all.filter((rule) => rule.state !== 'ok').sort(byUrgency);
  // A rule is `ok` until its first evaluation: "every rule is OK" holds only once each has been evaluated.
  const unevaluated = all.filter((rule) => rule.enabled && rule.last_evaluated_at === null).length;
  const opened = all.find((rule) => rule.id === openRuleId);
  const editing = all.find((rule) => rule.id === editingId);
  const create = canWrite ? () => setCreating(true) : undefined;

  return (
    <div className="space-y-6">
      {rules.isPending ? (
        <div role="status" aria-label="Loading rules" className="space-y-2">
          {openRuleId !== null ? (
            // The named rule comes first, and the rest of the view after it (AfterFocus).
            <AlertFocusFrame />
          ) : (
            <>
              <Skeleton className="h-20 w-full" />
              <Skeleton className="h-48 w-full" />
            </>
          )}
        </div>
      ) : !rules.data ? (
        <LoadError title="Failed to load the rules" query={rules} />
      ) : (
        <>
          {rules.isRefetchError && (
            <p role="status" className="text-xs text-destructive">
              Could not refresh: {errorMessage(rules.error, 'check your connection')}. The states below are
              the last ones loaded.
            </p>
          )}
          {openRuleId !== null && !opened && (
            <Alert
              variant="info"
              title={`There is no rule ${openRuleId}`}
              onDismiss={() => setOpenRuleId(null)}
            >
              It may have been deleted; its state changes are still in the history.
            </Alert>
          )}
          {opened && (
            <AlertFocus
              rule={opened}
              onEdit={canWrite ? () => setEditingId(opened.id) : undefined}
              onClose={() => setOpenRuleId(null)}
            />
          )}
          <AfterFocus focused={opened !== undefined}>
            <section aria-labelledby="active-alerts-heading" className="space-y-2">
              <h2 id="active-alerts-heading" className="text-lg font-semibold">
                Firing and pending
              </h2>
              {active.length === 0 ? (
                <p className="rounded-md border border-dashed p-4 text-sm text-muted-foreground">
                  Nothing firing or pending.{' '}
                  {unevaluated === 0
                    ? 'Every enabled rule is OK.'
                    : `${unevaluated === 1 ? '1 rule has' : `${unevaluated} rules have`} not been evaluated yet.`}
                </p>
              ) : (
                <ul aria-label="Firing and pending alerts" className="grid gap-3 lg:grid-cols-2">
                  {active.map((rule) => (
                    <RuleCard key={rule.id} rule={rule} onOpen={() => setOpenRuleId(rule.id)} />
                  ))}
                </ul>
              )}
            </section>
            <ViewSection
              id="rules-heading"
              title="Rules"
              className="space-y-3"
              actions={create && <AddButton onClick={create}>New Rule</AddButton>}
            >
              {all.length === 0 ? (
                <div className="rounded-md border border-dashed py-10 text-center text-sm text-muted-foreground">
                  <p>
                    No alert rules yet. A rule watches the bot&apos;s telemetry and tells you when something
                    is wrong.
                  </p>
                  {create && (
                    <AddButton className="mt-3" onClick={create}>
                      New Rule
                    </AddButton>
                  )}
                </div>
              ) : (
                <RulesTable
                  rules={all}
                  canWrite={canWrite}
                  onEdit={(rule) => setEditingId(rule.id)}
                  onDelete={setDeleting}
                />
              )}
            </ViewSection>
          </AfterFocus>
        </>
      )}
      <RuleDialog
        key={creating ? 'new' : (editing?.id ?? 'closed')}
        rule={creating ? undefined : editing}
        open={canWrite && (creating || editing !== undefined)}
        onOpenChange={(open) => {
          if (open) return;
          setCreating(false);
          setEditingId(null);
        }}
      />
      {deleting && <DeleteRuleDialog rule={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}

/**
 * The rest of the view, rendered once the rule an alert's link names has been painted: on a phone that rule
 * is on screen first, and the other rules follow a frame later (docs/benchmarks.md, "The first signed-in
 * load"). Rendered at once when no rule is named.
 */
function AfterFocus({ focused, children }: { focused: boolean; children: ReactNode }) {
  const painted = usePainted();
  if (!focused || painted) return children;
  return (
    <div role="status" aria-label="Loading the other rules" className="space-y-2">
      <Skeleton className="h-48 w-full" />
    </div>
  );
}

interface RulesTableProps {
  rules: AlertRule[];
  canWrite: boolean;
  onEdit: (rule: AlertRule) => void;
  onDelete: (rule: AlertRule) => void;
}

function RulesTable({ rules, canWrite, onEdit, onDelete }: RulesTableProps) {
  return (
    <ResponsiveTable
      aria-label="Alert rules"
      rows={rules}
      rowKey={(rule) => rule.id}
      columns={[
        { header: 'Name', primary: true, className: 'font-medium', cell: (rule) => rule.name },
        {
          header: 'Condition',
          className: 'max-w-72',
          cell: (rule) => <span className="max-sm:text-right">{describeCondition(rule.condition)}</span>,
        },
        { header: 'Severity', cell: (rule) => <SeverityBadge severity={rule.severity} /> },
        { header: 'State', cell: (rule) => <RuleStateBadge rule={rule} /> },
        {
          header: 'Last value',
          className: 'max-w-72',
          cell: (rule) => (
            <span className="break-words max-sm:text-right">
              {rule.last_evaluation?.summary ?? (
                <span className="text-muted-foreground">Not evaluated yet</span>
              )}
            </span>
          ),
        },
        { header: 'Last change', cell: (rule) => <RelativeTime value={rule.state_since} /> },
        { header: 'Enabled', cell: (rule) => <EnabledToggle rule={rule} canWrite={canWrite} /> },
        ...(canWrite
          ? [
              {
                header: 'Actions',
                headerHidden: true,
                below: true,
                cell: (rule: AlertRule) => (
                  <div className="flex justify-end gap-1">
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => onEdit(rule)}
                      aria-label={`Edit ${rule.name}`}
                    >
                      Edit
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => onDelete(rule)}
                      aria-label={`Delete ${rule.name}`}
                    >
                      Delete
                    </Button>
                  </div>
                ),
              },
            ]
          : []),
      ]}
    />
  );
}

/** Turns a rule on and off from its row; read only without alerts:write. */
function EnabledToggle({ rule, canWrite }: { rule: AlertRule; canWrite: boolean }) {
  const update = useUpdateRule();
  const toggle = (enabled: boolean) =>
    update.mutate(
      { id: rule.id, update: { enabled } },
      {
        onSuccess: () => toast.success(`Rule '${rule.name}' ${enabled ? 'enabled' : 'disabled'}`),
        onError: (error) => toast.error(errorMessage(error, 'Failed to change the rule')),
      },
    );
  return (
    <Checkbox
      checked={rule.enabled}
      disabled={!canWrite || update.isPending}
      onCheckedChange={toggle}
      label={<span className="sr-only">Enabled: {rule.name}</span>}
    />
  );
}

function DeleteRuleDialog({ rule, onClose }: { rule: AlertRule; onClose: () => void }) {
  const remove = useDeleteRule();
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Delete '${rule.name}'?`}
      description="It stops watching and notifies nobody. Its history is deleted with it."
      confirmLabel="Delete Rule"
      pendingLabel="Deleting..."
      pending={remove.isPending}
      error={remove.error ? errorMessage(remove.error, 'Failed to delete the rule') : null}
      onConfirm={() =>
        remove.mutate(rule.id, {
          onSuccess: () => {
            toast.success(`Rule '${rule.name}' deleted`);
            onClose();
          },
        })
      }
    />
  );
}
