import { formatDateTime } from '@/lib/format';
import { formatRelativeTime } from '@/lib/relative-time';

/** "5 min. ago", with the full date and time on hover and for screen readers (the time element). */
export function RelativeTime({ value, fallback = 'Never' }: { value: string | null; fallback?: string }) {
  if (!value) return <span className="text-muted-foreground">{fallback}</span>;
  const full = formatDateTime(value);
  return (
    <time dateTime={value} title={full} className="whitespace-nowrap">
      {formatRelativeTime(value, undefined, { seconds: true })}
    </time>
  );
}
