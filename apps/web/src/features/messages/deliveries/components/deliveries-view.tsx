import { RotateCw } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { LoadError } from '@/components/ui/load-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
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
            <Button
              variant="ghost"
              size="sm"
              disabled={deliveries.isFetching}
              onClick={() => void deliveries.refetch()}
            >
              <RotateCw aria-hidden className={deliveries.isFetching ? 'animate-spin' : undefined} />
              Refresh
            </Button>
          </div>
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        <DeliveryFiltersBar filters={filters} onChange={setFilter} />

        {deliveries.isPending && (
          <div role="status" aria-label="Loading deliveries" className="space-y-2">
            {Array.from({ length: 5 }, (_, index) => (
              <Skeleton key={index} className="h-12 w-full" />
            ))}
          </div>
        )}

        {deliveries.isError && !deliveries.data && (
          <LoadError
            title="Failed to load deliveries"
            error={deliveries.error}
            onRetry={() => void deliveries.refetch()}
          />
        )}

        {deliveries.isSuccess && rows.length === 0 && (
          <p className="rounded-md border border-dashed py-10 text-center text-sm text-muted-foreground">
            {filtered
              ? 'No deliveries match these filters'
              : 'No deliveries yet. Messages the bot, a schedule or Send now posts appear here.'}
          </p>
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

        {deliveries.isFetchNextPageError && <Alert variant="error">Failed to load more deliveries</Alert>}

        {deliveries.hasNextPage && (
          <div className="flex justify-center">
            <Button
              variant="secondary"
              disabled={deliveries.isFetchingNextPage}
              onClick={() => void deliveries.fetchNextPage()}
            >
              {deliveries.isFetchingNextPage ? 'Loading...' : 'Load more'}
            </Button>
          </div>
        )}
      </CardContent>
      {openId !== null && <DeliveryDialog key={openId} id={openId} onClose={() => setOpenId(null)} />}
    </Card>
  );
}
