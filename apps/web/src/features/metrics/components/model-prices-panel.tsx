import type { ModelPrice } from '@lumi/contract';
import { Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Table, Td, Th } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { useHasPermission } from '@/lib/permissions';
import { useModelPrices } from '../api/list-model-prices';
import { formatUsd } from '../lib/format-metrics';
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
        <Table aria-label="Model prices">
          <thead>
            <tr>
              <Th>Model</Th>
              <Th className="text-right">Input</Th>
              <Th className="text-right">Output</Th>
              <Th>Updated</Th>
              {canWrite && <Th className="text-right">Actions</Th>}
            </tr>
          </thead>
          <tbody>
            {prices.data.map((price) => (
              <tr key={price.model}>
                <Td className="font-mono text-xs break-all">{price.model}</Td>
                <Td className="text-right tabular-nums">{formatUsd(price.input_usd_per_million)}</Td>
                <Td className="text-right tabular-nums">{formatUsd(price.output_usd_per_million)}</Td>
                <Td className="text-xs whitespace-nowrap text-muted-foreground">
                  {formatDateTime(price.updated_at)}
                  {price.updated_by && ` by ${price.updated_by}`}
                </Td>
                {canWrite && (
                  <Td className="text-right">
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Edit price of ${price.model}`}
                      onClick={() => setDialog({ price })}
                    >
                      <Pencil aria-hidden />
                    </Button>
                  </Td>
                )}
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {dialog && <ModelPriceDialog price={dialog.price} onOpenChange={(open) => !open && setDialog(null)} />}
    </MetricCard>
  );
}
