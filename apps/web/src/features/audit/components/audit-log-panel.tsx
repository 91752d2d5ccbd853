import { LoadError } from '@/components/ui/load-error';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadMore } from '@/components/ui/load-more';
import { RefreshButton } from '@/components/ui/refresh-button';
import { SkeletonList } from '@/components/ui/skeleton';
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
            <RefreshButton query={logs} />
          </div>
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        <AuditFiltersForm filters={filters} onApply={setFilters} />

        {logs.isPending && <SkeletonList label="Loading audit logs" rows={5} rowClassName="h-16" />}

        {logs.isError && !logs.data && <LoadError title="Failed to load audit logs" query={logs} />}

        {logs.isSuccess && entries.length === 0 && <EmptyState>No audit logs found</EmptyState>}

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

        <LoadMore pages={logs} failure="Failed to load more audit logs" />
      </CardContent>
    </Card>
  );
}
