import type { TokenBudget } from '@lumi/contract';
import { CirclePause, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useHasPermission } from '@/lib/permissions';
import { useTokenBudgets } from '../api/list-token-budgets';
import { formatCurrency } from '@/lib/format';
import { formatCount } from '../lib/format-metrics';
import { panelErrorMessage } from '../lib/panel-error';
import { BudgetUsageBar } from './budget-usage-bar';
import { DeleteTokenBudgetDialog } from './delete-token-budget-dialog';
import { LevelBadge } from './level-badge';
import { MetricCard } from './metric-card';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';
import { TokenBudgetDialog } from './token-budget-dialog';

const TITLE = 'Token Budgets';

type OpenDialog =
  { kind: 'create' } | { kind: 'edit'; budget: TokenBudget } | { kind: 'delete'; provider: string } | null;

/** "used of limit", or that there is no such limit. */
function usageLine(used: string, limit: number | null, format: (value: number) => string) {
  return limit === null ? `${used} (no limit)` : `${used} of ${format(limit)}`;
}

function BudgetItem({
  budget,
  onEdit,
  onDelete,
}: {
  budget: TokenBudget;
  onEdit?: () => void;
  onDelete?: () => void;
}) {
  const { current_usage: usage } = budget;
  return (
    <li className="space-y-3 rounded-md border p-4" aria-label={`${budget.provider} budget`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold break-words">{budget.provider}</p>
        {budget.is_active ? (
          <LevelBadge level="success">Active</LevelBadge>
        ) : (
          <Badge>
            <CirclePause aria-hidden className="size-3.5" />
            Inactive
          </Badge>
        )}
      </div>
      <BudgetUsageBar provider={budget.provider} percentage={usage.usage_percentage} />
      <dl className="grid gap-1 text-sm">
        {[
          ['Tokens today', usageLine(formatCount(usage.tokens_used), budget.daily_token_limit, formatCount)],
          [
            'Cost today',
            usageLine(formatCurrency(usage.cost_incurred), budget.daily_cost_limit, formatCurrency),
          ],
        ].map(([term, line]) => (
          <div key={term} className="flex justify-between gap-3">
            <dt className="shrink-0 text-muted-foreground">{term}</dt>
            <dd className="text-right tabular-nums">{line}</dd>
          </div>
        ))}
      </dl>
      {onEdit && onDelete && (
        <div className="flex justify-end gap-2">
          {(
            [
              ['Edit', Pencil, 'secondary', onEdit],
              ['Delete', Trash2, 'ghost', onDelete],
            ] as const
          ).map(([text, Icon, variant, onClick]) => (
            <Button
              key={text}
              variant={variant}
              size="sm"
              onClick={onClick}
              aria-label={`${text} ${budget.provider} budget`}
            >
              <Icon aria-hidden />
              {text}
            </Button>
          ))}
        </div>
      )}
    </li>
  );
}

/** Token budgets per provider with today's usage (spec section 2); budgets:write may change them. */
export function TokenBudgetsPanel() {
  const canWrite = useHasPermission('budgets:write');
  const budgets = useTokenBudgets();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const close = (open: boolean) => {
    if (!open) setDialog(null);
  };

  return (
    <MetricCard
      title={TITLE}
      description="Usage today against each provider's daily limits"
      aside={
        canWrite && (
          <Button variant="secondary" size="sm" onClick={() => setDialog({ kind: 'create' })}>
            <Plus aria-hidden />
            Add Budget
          </Button>
        )
      }
    >
      {budgets.isPending && <PanelSkeleton label={TITLE} />}
      {budgets.isError && !budgets.data && (
        <PanelError message={panelErrorMessage(budgets.error)} onRetry={() => void budgets.refetch()} />
      )}
      {budgets.data?.length === 0 && (
        <PanelEmpty>No token budgets are set, so no provider is limited.</PanelEmpty>
      )}
      {budgets.data && budgets.data.length > 0 && (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {budgets.data.map((budget) => (
            <BudgetItem
              key={budget.provider}
              budget={budget}
              onEdit={canWrite ? () => setDialog({ kind: 'edit', budget }) : undefined}
              onDelete={canWrite ? () => setDialog({ kind: 'delete', provider: budget.provider }) : undefined}
            />
          ))}
        </ul>
      )}
      {dialog?.kind === 'create' && <TokenBudgetDialog onOpenChange={close} />}
      {dialog?.kind === 'edit' && <TokenBudgetDialog budget={dialog.budget} onOpenChange={close} />}
      {dialog?.kind === 'delete' && (
        <DeleteTokenBudgetDialog provider={dialog.provider} onOpenChange={close} />
      )}
    </MetricCard>
  );
}
