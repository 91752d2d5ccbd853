import { describe, expect, it } from 'vitest';
import { describeImportErrors, importPlan, parseImportFile } from './import-file';

describe('parseImportFile', () => {
  it.each([
    ['an export file', '{"domain":"moods","items":[{"name":"A"}]}', { ok: true, items: [{ name: 'A' }] }],
    ['a bare array', '[{"name":"A"}]', { ok: true, items: [{ name: 'A' }] }],
    ['text that is not JSON', 'name: A', { ok: false, message: 'The file is not valid JSON.' }],
    [
      'JSON without items',
      '{"domain":"moods"}',
      { ok: false, message: expect.stringContaining('no "items"') },
    ],
    ['an empty list', '[]', { ok: false, message: 'The file holds no items.' }],
  ])('reads %s', (_name, text, expected) => {
    expect(parseImportFile(text)).toEqual(expected);
  });
});

describe('importPlan', () => {
  it('counts items whose name exists (ignoring case) as updates and the rest as new', () => {
    expect(importPlan([{ name: 'sunny' }, { name: 'Rainy' }, { nope: 1 }], [{ name: 'Sunny' }])).toEqual({
      created: 2,
      updated: 1,
    });
  });
});

describe('describeImportErrors', () => {
  it('names each item by its position from 1 and its name', () => {
    const items = [{ name: 'Sunny' }, { content: 'x' }];
    expect(
      describeImportErrors(
        [
          { path: 'items.0.priority', message: 'Priority must be a whole number from 1 to 100' },
          { path: 'items.1.name', message: 'Name is required' },
          { path: 'items', message: 'At most 1000 items per import' },
        ],
        items,
      ),
    ).toEqual([
      { item: 'Item 1 (Sunny)', field: 'priority', message: 'Priority must be a whole number from 1 to 100' },
      { item: 'Item 2', field: 'name', message: 'Name is required' },
      { item: 'File', field: null, message: 'At most 1000 items per import' },
    ]);
  });
});
