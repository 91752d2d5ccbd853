import type { ConfigSnapshot } from '@lumi/contract';
import { cn } from '@/lib/cn';
import { contentToText } from '../lib/content';
import { changedFields, FIELD_LABELS, lineDiff, type SnapshotField } from '../lib/snapshot-diff';

interface SnapshotDiffViewProps {
  before: ConfigSnapshot;
  after: ConfigSnapshot;
  /** Names of the two sides as the reader knows them ('Theirs' and 'Yours', 'Revision 2' and 'Current'). */
  beforeLabel: string;
  afterLabel: string;
}

// Text stays in the foreground colour for contrast; the tint, the sign and the side's name carry the meaning.
const removedClass = 'bg-destructive/15 no-underline';
const addedClass = 'bg-success/20 no-underline';

function ValueText({ field, value }: { field: SnapshotField; value: ConfigSnapshot[SnapshotField] }) {
  if (field === 'is_active') return <>{value ? 'Yes' : 'No'}</>;
  if (Array.isArray(value)) return value.length > 0 ? <>{value.join(', ')}</> : <em>none</em>;
  if (value === '') return <em>empty</em>;
  return <>{String(value)}</>;
}

function ValuePair({
  field,
  before,
  after,
  beforeLabel,
  afterLabel,
}: SnapshotDiffViewProps & { field: SnapshotField }) {
  return (
    <div className="grid gap-1">
      <del className={cn('rounded px-1.5 py-0.5 break-words', removedClass)}>
        <span className="font-medium">{beforeLabel}: </span>
        <ValueText field={field} value={before[field]} />
      </del>
      <ins className={cn('rounded px-1.5 py-0.5 break-words', addedClass)}>
        <span className="font-medium">{afterLabel}: </span>
        <ValueText field={field} value={after[field]} />
      </ins>
    </div>
  );
}

const kindOf = (content: ConfigSnapshot['content']) => (typeof content === 'string' ? 'text' : 'JSON');

/** Content, line by line (jsdiff): '−' lines are the first side's, '+' lines the second's. */
function ContentDiff({ before, after, beforeLabel, afterLabel }: SnapshotDiffViewProps) {
  const lines = lineDiff(contentToText(before.content), contentToText(after.content));
  const kinds = [kindOf(before.content), kindOf(after.content)];
  return (
    <div className="space-y-1">
      {kinds[0] !== kinds[1] && (
        <p className="text-xs text-muted-foreground">
          {beforeLabel} is {kinds[0]}, {afterLabel} is {kinds[1]}.
        </p>
      )}
      <div className="max-h-72 overflow-auto rounded-md border font-mono text-xs leading-5">
        {lines.map((line, index) => {
          if (line.kind === 'skipped') {
            return (
              <div key={index} className="bg-muted/50 px-2 text-muted-foreground italic">
                ⋯ {line.count} unchanged lines
              </div>
            );
          }
          const Line = line.kind === 'removed' ? 'del' : line.kind === 'added' ? 'ins' : 'div';
          const sign = line.kind === 'removed' ? '−' : line.kind === 'added' ? '+' : ' ';
          const side = line.kind === 'removed' ? beforeLabel : line.kind === 'added' ? afterLabel : null;
          return (
            <Line
              key={index}
              className={cn(
                'block px-2 break-all whitespace-pre-wrap',
                line.kind === 'removed' && removedClass,
                line.kind === 'added' && addedClass,
              )}
            >
              <span aria-hidden className="inline-block w-4 select-none">
                {sign}
              </span>
              {side && <span className="sr-only">{side}: </span>}
              {line.text || ' '}
            </Line>
          );
        })}
      </div>
    </div>
  );
}

/** Two versions of an item, field by field; only the fields that differ are shown. */
export function SnapshotDiffView(props: SnapshotDiffViewProps) {
  const fields = changedFields(props.before, props.after);
  if (fields.length === 0) {
    return <p className="text-sm text-muted-foreground">No differences: both have the same values.</p>;
  }
  return (
    <div className="space-y-2">
      <p className="flex flex-wrap gap-2 text-xs text-muted-foreground">
        <span className={cn('rounded px-1.5', removedClass)}>− {props.beforeLabel}</span>
        <span className={cn('rounded px-1.5', addedClass)}>+ {props.afterLabel}</span>
      </p>
      <dl className="divide-y rounded-md border text-sm">
        {fields.map((field) => (
          <div key={field} className="grid gap-1 px-3 py-2 sm:grid-cols-[7rem_1fr] sm:gap-3">
            <dt className="font-medium sm:pt-0.5">{FIELD_LABELS[field]}</dt>
            <dd className="min-w-0">
              {field === 'content' ? <ContentDiff {...props} /> : <ValuePair field={field} {...props} />}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
