import type { ConfigSnapshot } from '@lumi/contract';
import { diffLines } from 'diff';

export const SNAPSHOT_FIELDS = ['name', 'description', 'content', 'priority', 'tags', 'is_active'] as const;
export type SnapshotField = (typeof SNAPSHOT_FIELDS)[number];

export const FIELD_LABELS: Record<SnapshotField, string> = {
  name: 'Name',
  description: 'Description',
  content: 'Content',
  priority: 'Priority',
  tags: 'Tags',
  is_active: 'Active',
};

/** The fields whose values differ, in form order (the server compares them the same way). */
export function changedFields(before: ConfigSnapshot, after: ConfigSnapshot): SnapshotField[] {
  return SNAPSHOT_FIELDS.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

export type DiffLine =
  | { kind: 'same' | 'removed' | 'added'; text: string }
  /** A run of unchanged lines left out, far from any change. */
  | { kind: 'skipped'; count: number };

/** Unchanged lines kept around each change. */
const CONTEXT_LINES = 3;

function splitLines(value: string): string[] {
  const lines = value.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Keeps a run of unchanged lines only near the changes before and after it. */
function collapse(run: string[], afterChange: boolean, beforeChange: boolean): DiffLine[] {
  const head = afterChange ? CONTEXT_LINES : 0;
  const tail = beforeChange ? CONTEXT_LINES : 0;
  const same = (text: string): DiffLine => ({ kind: 'same', text });
  if (run.length - head - tail < 2) return run.map(same);
  return [
    ...run.slice(0, head).map(same),
    { kind: 'skipped', count: run.length - head - tail },
    ...run.slice(run.length - tail).map(same),
  ];
}

/** A line-by-line diff (jsdiff) with long unchanged stretches folded away. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const parts = diffLines(before, after);
  return parts.flatMap((part, index): DiffLine[] => {
    const lines = splitLines(part.value);
    if (part.added) return lines.map((text) => ({ kind: 'added', text }));
    if (part.removed) return lines.map((text) => ({ kind: 'removed', text }));
    return collapse(lines, index > 0, index < parts.length - 1);
  });
}
