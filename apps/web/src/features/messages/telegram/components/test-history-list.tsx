import { CircleCheck, CircleX } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format';
import { useTestHistory } from '../api/list-test-history';

/** The template's recorded test sends, newest first: time, user, outcome, message id, error. */
export function TestHistoryList({ templateId }: { templateId: number }) {
  const history = useTestHistory(templateId);
  return (
    <div>
      <h4 className="mb-1.5 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
        Test history
      </h4>
      {history.isPending ? (
        <Skeleton className="h-12 w-full" />
      ) : history.isError ? (
        <p className="text-sm text-destructive">Failed to load test history</p>
      ) : history.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">No test messages sent yet</p>
      ) : (
        // Focusable, so the list can be scrolled with the keyboard.
        <ul aria-label="Test history" tabIndex={0} className="max-h-72 space-y-1.5 overflow-y-auto text-xs">
          {history.data.map((record) => (
            <li key={record.id} className="rounded-md border bg-card p-2">
              <div className="flex items-center justify-between gap-2">
                <span className="flex items-center gap-1 font-medium">
                  {record.success ? (
                    <CircleCheck aria-hidden className="size-3.5 text-success" />
                  ) : (
                    <CircleX aria-hidden className="size-3.5 text-destructive" />
                  )}
                  {record.success ? 'Sent' : 'Failed'}
                </span>
                <time dateTime={record.sent_at} className="text-muted-foreground">
                  {formatDateTime(record.sent_at)}
                </time>
              </div>
              <p className="mt-0.5 text-muted-foreground">
                {record.user ?? 'Unknown user'} · v{record.template_version}
                {record.channel_name && ` · ${record.channel_name}`}
                {record.telegram_message_id !== null && ` · Message ID: ${record.telegram_message_id}`}
              </p>
              {record.error && <p className="mt-0.5 break-words text-destructive">{record.error}</p>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
