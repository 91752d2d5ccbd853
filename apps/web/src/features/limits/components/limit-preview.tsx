import type { LimitUsage, LimitValues } from '@lumi/contract';
import { useEffect, useMemo, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { useLimitPreview } from '../api/preview-limit';
import { limitBodyOf, type LimitFormValues } from '../lib/limit-form';
import { describeUsage, describeUsageSubject } from '../lib/limit-text';

/** Typing waits this long before the server is asked again. */
export const PREVIEW_DEBOUNCE_MS = 400;

/** The limit being written, once the form has not changed for the debounce time and the contract accepts it. */
function useSettledLimit(): LimitValues | null {
  const { control } = useFormContext<LimitFormValues>();
  const values = useWatch({ control });
  // Compared as text: the watched object is a new one at each render.
  const text = JSON.stringify(values);
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(text), PREVIEW_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text]);
  return useMemo(() => limitBodyOf(JSON.parse(settled) as LimitFormValues), [settled]);
}

function UsageList({ limit, usages }: { limit: LimitValues; usages: LimitUsage[] }) {
  return (
    <ul className="mt-1 space-y-0.5 pl-4">
      {usages.map((usage) => (
        <li key={usage.subject} className="list-disc">
          <span className="font-mono text-xs">{describeUsageSubject(limit.scope, usage.subject)}</span>
          {': '}
          <span className="tabular-nums">{describeUsage(limit.metric, usage.used, usage.amount)}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The dialog's live preview (docs/operators/limits.md): who would be over the limit being written now, and
 * who near it (80 % or more), in its current window, before it is saved. While a changed limit is checked,
 * the previous answer stays, dimmed and marked busy.
 */
export function LimitPreview() {
  const limit = useSettledLimit();
  const preview = useLimitPreview(limit);
  const data = limit && preview.data;
  return (
    <section
      aria-label="Preview"
      aria-live="polite"
      aria-busy={preview.isPlaceholderData}
      className="space-y-1 rounded-md bg-muted p-3 text-sm"
    >
      <h3 className="font-medium">Now</h3>
      {!limit ? (
        <p className="text-muted-foreground">Complete the limit to see who is over it now.</p>
      ) : preview.isError ? (
        <p className="text-destructive">{errorMessage(preview.error, 'The preview is not available')}</p>
      ) : !data ? (
        <p className="text-muted-foreground">Checking…</p>
      ) : (
        <div className={cn('space-y-1', preview.isPlaceholderData && 'opacity-50')}>
          {data.over.length === 0 ? (
            <p>Nobody is over it now</p>
          ) : (
            <div>
              <p className="font-medium text-destructive">Over it now: {data.over.length}</p>
              <UsageList limit={limit} usages={data.over} />
            </div>
          )}
          {data.near.length > 0 && (
            <div>
              <p className="font-medium text-warning">Near it: {data.near.length}</p>
              <UsageList limit={limit} usages={data.near} />
            </div>
          )}
          <p className="text-xs text-muted-foreground">This window ends {formatDateTime(data.window_end)}.</p>
        </div>
      )}
    </section>
  );
}
