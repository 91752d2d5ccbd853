import type { ModelPrice } from '@lumi/contract';
import { Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ResponsiveTable, type ResponsiveColumn } from '@/components/ui/responsive-table';
import { formatCurrency, formatDateTime } from '@/lib/format';
import { useHasPermission } from '@/lib/permissions';
import { useModelPrices } from '../api/list-model-prices';
import { panelErrorMessage } from '../lib/panel-error';
import { MetricCard } from './metric-card';
import { ModelPriceDialog } from './model-price-dialog';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';

const TITLE = 'Model Prices';

type OpenDialog = { price?: ModelPrice } | null;

/** The model price table: what an llm_call reported without a cost is charged (budgets:write edits it). */
export function ModelPricesPanel() {
  const canWrite = useHasPermission('budgets:write');
  const prices = useModelPrices();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const columns: Array<ResponsiveColumn<ModelPrice>> = [
    { header: 'Model', primary: true, className: 'font-mono text-xs', cell: (price) => price.model },
    { header: 'Input', numeric: true, cell: (price) => formatCurrency(price.input_usd_per_million) },
    { header: 'Output', numeric: true, cell: (price) => formatCurrency(price.output_usd_per_million) },
    {
      header: 'Updated',
      className: 'sm:whitespace-nowrap',
      cell: (price) => (
        <span className="text-xs text-muted-foreground max-sm:text-right">
          {formatDateTime(price.updated_at)}
          {price.updated_by && ` by ${price.updated_by}`}
        </span>
      ),
    },
  ];
  if (canWrite)
    columns.push({
      header: 'Actions',
      headerHidden: true,
      className: 'text-right',
      cell: (price) => (
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Edit price of ${price.model}`}
          onClick={() => setDialog({ price })}
        >
          <Pencil aria-hidden />
        </Button>
      ),
    });

  return (
    <MetricCard
      title={TITLE}
      description="USD per million tokens, for calls the bot reports without a cost"
      aside={
        canWrite && (
          <Button variant="secondary" size="sm" onClick={() => setDialog({})}>
            <Plus aria-hidden />
            Add Price
          </Button>
        )
      }
    >
      {prices.isPending && <PanelSkeleton label={TITLE} rows={3} />}
      {prices.isError && !prices.data && (
        <PanelError message={panelErrorMessage(prices.error)} onRetry={() => void prices.refetch()} />
      )}
      {prices.data?.length === 0 && (
        <PanelEmpty>No model has a price yet: calls reported without a cost count as free.</PanelEmpty>
      )}
      {prices.data && prices.data.length > 0 && (
        <ResponsiveTable
          aria-label="Model prices"
          columns={columns}
          rows={prices.data}
          rowKey={(price) => price.model}
        />
      )}
      {dialog && <ModelPriceDialog price={dialog.price} onOpenChange={(open) => !open && setDialog(null)} />}
    </MetricCard>
  );
}
