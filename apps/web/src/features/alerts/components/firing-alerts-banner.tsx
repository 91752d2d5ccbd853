import { CircleCheck, Flame } from 'lucide-react';
import { Link } from 'react-router';
import { useHasPermission } from '@/lib/permissions';
import { useAlertSummary } from '../api/summary';
import { SeverityBadge, SilencedBadge } from './alert-badges';
import { RelativeTime } from './relative-time';

/** How many firing rules the banner names; the Alerts screen lists the rest. */
const SHOWN = 5;

/**
 * The Overview's firing-alerts banner (docs/bot-developers/alerts.md): how many rules fire and how many of those a
 * silence keeps quiet, the most urgent ones (critical first, as the server orders them, each silenced one
 * marked) and a link to the Alerts screen; a quiet line when none fire. Nothing without alerts:read or when
 * no summary could be read: the panels below say how the system is.
 */
export function FiringAlertsBanner() {
  const canRead = useHasPermission('alerts:read');
  const summary = useAlertSummary(canRead);
  if (!canRead) return null;
  // While the summary loads, the quiet line's space is kept, so the panels below do not move down when it
  // arrives (layout shift, docs/benchmarks.md "The first signed-in load"); a failed poll keeps the last one.
  if (!summary.data) return summary.isError ? null : <QuietLine placeholder />;
  const { firing, pending, firing_rules: rules } = summary.data;
  // The server lists every firing rule, so the silenced ones are counted from the list.
  const silenced = rules.filter((rule) => rule.silenced).length;

  if (firing === 0) return <QuietLine pending={pending} />;

  return (
    <section
      aria-labelledby="firing-alerts-heading"
      className="mb-4 rounded-lg border border-l-4 border-l-destructive bg-card p-4 shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="firing-alerts-heading" className="flex items-center gap-2 font-semibold text-destructive">
          <Flame aria-hidden className="size-5" />
          {firing === 1 ? '1 alert firing' : `${firing} alerts firing`}
          {silenced > 0 && `, ${silenced} silenced`}
          {pending > 0 && (
            <span className="text-sm font-normal text-muted-foreground">· {pending} pending</span>
          )}
        </h2>
        <Link
          to="/alerts"
          className="rounded-md border bg-card px-3 py-1.5 text-sm font-medium hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
        >
          View alerts
        </Link>
      </div>
      <ul className="mt-3 space-y-2">
        {rules.slice(0, SHOWN).map((rule) => (
          <li key={rule.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
            <SeverityBadge severity={rule.severity} />
            {rule.silenced && <SilencedBadge />}
            <Link to={`/alerts?rule=${rule.id}`} className="font-medium underline-offset-2 hover:underline">
              {rule.name}
            </Link>
            {rule.summary && (
              <span className="min-w-0 break-words text-muted-foreground">{rule.summary}</span>
            )}
            {rule.since && (
              <span className="text-xs text-muted-foreground">
                started <RelativeTime value={rule.since} />
              </span>
            )}
          </li>
        ))}
      </ul>
      {rules.length > SHOWN && (
        <p className="mt-2 text-xs text-muted-foreground">
          and {rules.length - SHOWN} more on the Alerts screen
        </p>
      )}
    </section>
  );
}

/** "No alerts firing" and the link to the Alerts screen; as a placeholder, the same box with nothing in it. */
function QuietLine({ pending = 0, placeholder = false }: { pending?: number; placeholder?: boolean }) {
  const box =
    'mb-4 flex flex-wrap items-center justify-between gap-2 rounded-lg border bg-card px-4 py-2 text-sm';
  if (placeholder) {
    return (
      <div aria-hidden className={box}>
        <span className="invisible">No alerts firing</span>
      </div>
    );
  }
  return (
    <section aria-label="Alerts" className={box}>
      <span className="flex items-center gap-2">
        <CircleCheck aria-hidden className="size-4 text-success" />
        No alerts firing{pending > 0 ? ` · ${pending} pending` : ''}
      </span>
      <Link to="/alerts" className="text-primary underline-offset-2 hover:underline">
        View alerts
      </Link>
    </section>
  );
}
