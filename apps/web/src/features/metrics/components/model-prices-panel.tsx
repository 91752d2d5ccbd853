import type { ModelPrice } from '@lumi/contract';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ResponsiveTable, type ResponsiveColumn } from '@/components/ui/responsive-table';
import { formatCurrency, formatDateTime } from '@/lib/format';
import { useHasPermission } from '@/lib/permissions';
import { useModelPrices } from '../api/list-model-prices';
import { formatCount } from '../lib/format-metrics';
import { panelErrorMessage } from '../lib/panel-error';
import { MetricCard } from './metric-card';
import { ModelPriceDialog } from './model-price-dialog';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';
import { RemoveModelPriceDialog } from './remove-model-price-dialog';

const TITLE = 'Model Prices';

type OpenDialog = { edit: { price?: ModelPrice } } | { remove: string } | null;

/** Where a price comes from (docs/operators/metrics.md, "Token budgets and model prices"). */
function PriceSource({ price }: { price: ModelPrice }) {
  if (price.source === 'operator') return <Badge variant="primary">Your price</Badge>;
  if (price.source === 'none') return <Badge variant="warning">No price</Badge>;
  const alias =
    price.catalogue && price.catalogue.model !== price.model ? ` as ${price.catalogue.model}` : '';
  return (
    <span className="text-xs text-muted-foreground">
      <Badge>Catalogue</Badge> {price.catalogue?.name}
      {alias}
    </span>
  );
}

/**
 * The model prices: the operator's, which win, then every model seen in calls over the last 30 days with
 * the built-in catalogue's price or none, and how many of its calls Lumi could not price (budgets:write
 * sets, overrides and removes prices).
 */
export function ModelPricesPanel() {
  const canWrite = useHasPermission('budgets:write');
  const prices = useModelPrices();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const columns: Array<ResponsiveColumn<ModelPrice>> = [
    { header: 'Model', primary: true, className: 'font-mono text-xs', cell: (price) => price.model },
    {
      header: 'Input',
      numeric: true,
      cell: (price) => (price.source === 'none' ? '—' : formatCurrency(price.input_usd_per_million)),
    },
    {
      header: 'Output',
      numeric: true,
      cell: (price) => (price.source === 'none' ? '—' : formatCurrency(price.output_usd_per_million)),
    },
    { header: 'Source', cell: (price) => <PriceSource price={price} /> },
    {
      header: 'Unpriced calls',
      numeric: true,
      cell: (price) =>
        price.unpriced_requests > 0 ? (
          <span className="font-medium text-warning">{formatCount(price.unpriced_requests)}</span>
        ) : (
          '0'
        ),
    },
    {
      header: 'Updated',
      className: 'sm:whitespace-nowrap',
      cell: (price) =>
        price.updated_at ? (
          <span className="text-xs text-muted-foreground max-sm:text-right">
            {formatDateTime(price.updated_at)}
            {price.updated_by && ` by ${price.updated_by}`}
          </span>
        ) : (
          '—'
        ),
    },
  ];
  if (canWrite)
    columns.push({
      header: 'Actions',
      headerHidden: true,
      below: true,
      className: 'text-right sm:whitespace-nowrap',
      cell: (price) =>
        price.source === 'operator' ? (
          <>
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Edit price of ${price.model}`}
              onClick={() => setDialog({ edit: { price } })}
            >
              <Pencil aria-hidden />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Remove price of ${price.model}`}
              onClick={() => setDialog({ remove: price.model })}
            >
              <Trash2 aria-hidden />
            </Button>
          </>
        ) : (
          <Button variant="secondary" size="sm" onClick={() => setDialog({ edit: { price } })}>
            {price.source === 'catalogue' ? 'Override' : 'Set Price'}
            <span className="sr-only"> for {price.model}</span>
          </Button>
        ),
    });

  return (
    <MetricCard
      title={TITLE}
      description="USD per million tokens, for calls the bot reports without a cost: your price, else the built-in catalogue's"
      aside={
        canWrite && (
          <Button variant="secondary" size="sm" onClick={() => setDialog({ edit: {} })}>
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
        <PanelEmpty>
          No calls yet and no prices of your own: the built-in catalogue prices calls as they arrive.
        </PanelEmpty>
      )}
      {prices.data && prices.data.length > 0 && (
        <ResponsiveTable
          aria-label="Model prices"
          columns={columns}
          rows={prices.data}
          rowKey={(price) => price.model}
        />
      )}
      {dialog && 'edit' in dialog && (
        <ModelPriceDialog price={dialog.edit.price} onOpenChange={(open) => !open && setDialog(null)} />
      )}
      {dialog && 'remove' in dialog && (
        <RemoveModelPriceDialog model={dialog.remove} onOpenChange={(open) => !open && setDialog(null)} />
      )}
    </MetricCard>
  );
}
