import { LoadError } from '@/components/ui/load-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadMore } from '@/components/ui/load-more';
import { RefreshButton } from '@/components/ui/refresh-button';
import { SkeletonList } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { DELIVERIES_POLL_MS } from '../api/delivery-keys';
import { useDeliveries } from '../api/list-deliveries';
import { useDeliveryFilters } from '../hooks/use-delivery-filters';
import { DeliveriesTable } from './deliveries-table';
import { DeliveryDialog } from './delivery-dialog';
import { DeliveryFiltersBar } from './delivery-filters-bar';

/**
 * The Deliveries view of Messages (docs/operators/console-guide.md, "Messages"): every message Lumi sent or
 * is about to send, newest first, filtered by status, channel, template and time range (all in the URL),
 * refreshed live, 50 at a time with Load more; a delivery's details open over it (?delivery=id).
 */
export function DeliveriesView() {
  const { filters, setFilter, clearFilters, openId, setOpenId } = useDeliveryFilters();
  const deliveries = useDeliveries(filters);
  const rows = deliveries.data?.pages.flatMap((page) => page.deliveries) ?? [];
  const filtered = Object.values(filters).some((value) => value !== null);

  return (
    <Card aria-labelledby="deliveries-heading">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <CardTitle id="deliveries-heading">Deliveries</CardTitle>
            <p className="text-xs text-muted-foreground">
              Updates every {DELIVERIES_POLL_MS / 1000} seconds while this page is open
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            {filtered && (
              <Button variant="secondary" size="sm" onClick={clearFilters}>
                Clear filters
              </Button>
            )}
            <RefreshButton query={deliveries} />
          </div>
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        <DeliveryFiltersBar filters={filters} onChange={setFilter} />

        {deliveries.isPending && <SkeletonList label="Loading deliveries" rows={5} rowClassName="h-12" />}

        {deliveries.isError && !deliveries.data && (
          <LoadError title="Failed to load deliveries" query={deliveries} />
        )}

        {deliveries.isSuccess && rows.length === 0 && (
          <EmptyState>
            {filtered
              ? 'No deliveries match these filters'
              : 'No deliveries yet. Messages the bot, a schedule or Send now posts appear here.'}
          </EmptyState>
        )}

        {rows.length > 0 && (
          <>
            <DeliveriesTable deliveries={rows} onOpen={(delivery) => setOpenId(delivery.id)} />
            <p aria-live="polite" className="text-xs text-muted-foreground">
              Showing {rows.length} {rows.length === 1 ? 'delivery' : 'deliveries'}
            </p>
          </>
        )}

        {deliveries.isRefetchError && (
          <p role="status" className="text-xs text-destructive">
            Could not refresh: {errorMessage(deliveries.error, 'check your connection')}. The list below is
            the last one loaded.
          </p>
        )}

        <LoadMore pages={deliveries} failure="Failed to load more deliveries" />
      </CardContent>
      {openId !== null && <DeliveryDialog key={openId} id={openId} onClose={() => setOpenId(null)} />}
    </Card>
  );
}
