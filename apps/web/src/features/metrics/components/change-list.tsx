import type { ChangeMarker } from '@lumi/contract';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { dateTimeFormat } from '@/lib/intl';

/** The changes a card lists before it offers the earlier ones. */
const CARD_MAX = 5;

const when = dateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Who saved a change: one made without a signed-in user (at start-up, say) was the system's. */
export const savedBy = (change: ChangeMarker) => change.user ?? 'System';

/** When a change was saved, in the reader's time zone. */
export const savedAt = (change: ChangeMarker) => when.format(new Date(change.at));

/** One change on a marker's card: what, by whom and when, and a link to the item while it exists. */
function ChangeEntry({ change }: { change: ChangeMarker }) {
  return (
    <li className="space-y-0.5">
      <p className="font-medium break-words">{change.summary}</p>
      <p className="text-xs text-muted-foreground">
        {savedBy(change)} · <time dateTime={change.at}>{savedAt(change)}</time>
        {change.version !== null && ` · version ${change.version}`}
      </p>
      {change.link && (
        <Link to={change.link} className="text-xs text-primary underline underline-offset-2">
          Open {change.resource_name ?? 'the changed item'}
        </Link>
      )}
    </li>
  );
}

/**
 * The card's changes, newest first: the newest few, then a button that opens the list of the earlier ones
 * (`onOpenEarlier` lets the card stay open for it).
 */
export function ChangeList({
  changes,
  onOpenEarlier,
}: {
  changes: readonly ChangeMarker[];
  onOpenEarlier: () => void;
}) {
  const [showEarlier, setShowEarlier] = useState(false);
  const earlierId = useId();
  const newest = changes.slice(-CARD_MAX).reverse();
  const earlier = changes.slice(0, -CARD_MAX).reverse();
  const count = `${earlier.length} earlier ${earlier.length === 1 ? 'change' : 'changes'}`;
  return (
    <>
      <ul className="space-y-3">
        {newest.map((change) => (
          <ChangeEntry key={change.id} change={change} />
        ))}
      </ul>
      {earlier.length > 0 && (
        <button
          type="button"
          aria-expanded={showEarlier}
          aria-controls={showEarlier ? earlierId : undefined}
          onClick={() => {
            onOpenEarlier();
            setShowEarlier((shown) => !shown);
          }}
          className="rounded-sm text-xs text-primary underline underline-offset-2"
        >
          {showEarlier ? `Hide the ${count}` : `and ${count}`}
        </button>
      )}
      {showEarlier && (
        <ul id={earlierId} aria-label="Earlier changes" className="space-y-3 border-t pt-3">
          {earlier.map((change) => (
            <ChangeEntry key={change.id} change={change} />
          ))}
        </ul>
      )}
    </>
  );
}
