import { RotateCw } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { LoadError } from '@/components/ui/load-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuditLogs } from '../api/list-audit-logs';
import { useAuditFilters } from '../hooks/use-audit-filters';
import { AuditExportButtons } from './audit-export-buttons';
import { AuditFiltersForm } from './audit-filters-form';
import { AuditLogEntry } from './audit-log-entry';

/** 'Recent Audit Logs' (spec: Administration): filters, the newest 50 entries, then Load more. */
export function AuditLogPanel() {
  const { filters, setFilters } = useAuditFilters();
  const logs = useAuditLogs(filters);
  const entries = logs.data?.pages.flatMap((page) => page.logs) ?? [];

  return (
    <Card aria-labelledby="audit-logs-heading">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <CardTitle id="audit-logs-heading">Recent Audit Logs</CardTitle>
          <div className="flex flex-wrap items-start gap-2">
            <AuditExportButtons filters={filters} />
            <Button variant="ghost" size="sm" disabled={logs.isFetching} onClick={() => void logs.refetch()}>
              <RotateCw aria-hidden className={logs.isFetching ? 'animate-spin' : undefined} />
              Refresh
            </Button>
          </div>
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        <AuditFiltersForm filters={filters} onApply={setFilters} />

        {logs.isPending && (
          <div role="status" aria-label="Loading audit logs" className="space-y-2">
            {Array.from({ length: 5 }, (_, index) => (
              <Skeleton key={index} className="h-16 w-full" />
            ))}
          </div>
        )}

        {logs.isError && !logs.data && (
          <LoadError
            title="Failed to load audit logs"
            error={logs.error}
            onRetry={() => void logs.refetch()}
          />
        )}

        {logs.isSuccess && entries.length === 0 && (
          <p className="rounded-md border border-dashed py-10 text-center text-sm text-muted-foreground">
            No audit logs found
          </p>
        )}

        {entries.length > 0 && (
          <>
            <ol aria-label="Audit log entries" className="divide-y rounded-md border">
              {entries.map((log) => (
                <AuditLogEntry key={log.id} log={log} />
              ))}
            </ol>
            <p aria-live="polite" className="text-xs text-muted-foreground">
              Showing {entries.length} {entries.length === 1 ? 'entry' : 'entries'}
            </p>
          </>
        )}

        {logs.isFetchNextPageError && <Alert variant="error">Failed to load more audit logs</Alert>}

        {logs.hasNextPage && (
          <div className="flex justify-center">
            <Button
              variant="secondary"
              disabled={logs.isFetchingNextPage}
              onClick={() => void logs.fetchNextPage()}
            >
              {logs.isFetchingNextPage ? 'Loading...' : 'Load more'}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
