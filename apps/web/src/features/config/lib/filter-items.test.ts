import type { ConfigItem } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { filterItems, tagsOf } from './filter-items';

function item(name: string, tags: string[], is_active: boolean): ConfigItem {
  return {
    id: name.length,
    domain: 'moods',
    name,
    description: '',
    content: 'x',
    is_active,
    tags,
    priority: 1,
    version: 1,
    created_at: '',
    updated_at: '',
    updated_by: null,
  };
}

const items = [
  item('Calm', ['quiet', 'day'], true),
  item('Grumpy', ['loud'], false),
  item('Calmer', [], false),
];
const names = (list: ConfigItem[]) => list.map((i) => i.name);

describe('filterItems', () => {
  it.each([
    [{ search: '', tag: '', active: 'all' }, ['Calm', 'Grumpy', 'Calmer']],
    [{ search: 'CALM', tag: '', active: 'all' }, ['Calm', 'Calmer']],
    [{ search: '', tag: 'loud', active: 'all' }, ['Grumpy']],
    [{ search: '', tag: '', active: 'active' }, ['Calm']],
    [{ search: 'calm', tag: '', active: 'inactive' }, ['Calmer']],
  ] as const)('%j gives %j', (filters, expected) => {
    expect(names(filterItems(items, filters))).toEqual(expected);
  });

  it('offers every tag once, sorted', () => {
    expect(tagsOf(items)).toEqual(['day', 'loud', 'quiet']);
  });
});
