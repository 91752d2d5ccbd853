import type { DeliveryAttempt } from '@lumi/contract';
import { formatDateTime } from '@/lib/format';
import { AttemptOutcomeBadge } from './delivery-status-badge';
import { numberFormat } from '@/lib/intl';

const count = numberFormat();

function Fact({ label, children }: { label: string; children: string }) {
  return (
    <div className="flex gap-1.5">
      <dt className="text-muted-foreground">{label}:</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

/**
 * Every attempt with Telegram's answer: outcome, when and how long, the error code, error and retry_after.
 * A message sent in parts has attempts per part (docs/bot-developers/deliveries.md, "Long messages").
 */
export function DeliveryAttempts({
  attempts,
  parts,
}: {
  attempts: readonly DeliveryAttempt[];
  parts: number | null;
}) {
  if (attempts.length === 0) {
    return <p className="text-sm text-muted-foreground">No attempts yet: the sender has not taken it.</p>;
  }
  return (
    <ol aria-label="Attempts" className="divide-y rounded-md border">
      {attempts.map((attempt) => (
        <li key={`${attempt.part}-${attempt.attempt}`} className="space-y-1.5 p-3 text-sm">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="font-medium">
              {attempt.part !== null && parts !== null && `Part ${attempt.part} of ${parts}, `}
              {attempt.part !== null && parts !== null ? 'attempt' : 'Attempt'} {attempt.attempt}
            </span>
            <AttemptOutcomeBadge outcome={attempt.outcome} />
          </div>
          <dl className="grid gap-x-4 gap-y-0.5 text-xs sm:grid-cols-2">
            <Fact label="Started">{formatDateTime(attempt.started_at)}</Fact>
            {attempt.duration_ms !== null && (
              <Fact label="Took">{`${count.format(attempt.duration_ms)} ms`}</Fact>
            )}
            {attempt.error_code !== null && <Fact label="Error code">{String(attempt.error_code)}</Fact>}
            {attempt.retry_after_seconds !== null && (
              <Fact label="Retry after">{`${count.format(attempt.retry_after_seconds)} s`}</Fact>
            )}
          </dl>
          {attempt.error && <p className="text-xs break-words text-destructive">{attempt.error}</p>}
        </li>
      ))}
    </ol>
  );
}
