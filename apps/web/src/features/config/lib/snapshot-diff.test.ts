import type { ConfigSnapshot } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { changedFields, lineDiff } from './snapshot-diff';

const base: ConfigSnapshot = {
  name: 'Calm',
  description: '',
  content: { tone: 'calm' },
  is_active: true,
  tags: ['a'],
  priority: 1,
};

describe('changedFields', () => {
  it('lists the fields that differ, in form order', () => {
    expect(changedFields(base, base)).toEqual([]);
    expect(changedFields(base, { ...base, is_active: false, content: { tone: 'busy' }, tags: [] })).toEqual([
      'content',
      'tags',
      'is_active',
    ]);
  });
});

describe('lineDiff', () => {
  it('marks removed and added lines', () => {
    expect(lineDiff('a\nb\nc\n', 'a\nB\nc\n')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'B' },
      { kind: 'same', text: 'c' },
    ]);
  });

  it('folds long unchanged stretches away from the changes', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const changed = [...lines];
    changed[10] = 'changed';
    const diff = lineDiff(lines.join('\n'), changed.join('\n'));
    expect(diff[0]).toEqual({ kind: 'skipped', count: 7 });
    expect(diff.filter((line) => line.kind === 'same')).toHaveLength(6);
    expect(diff.at(-1)).toEqual({ kind: 'skipped', count: 6 });
  });
});
