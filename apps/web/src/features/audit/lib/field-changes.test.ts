import { describe, expect, it } from 'vitest';
import { fieldChanges } from './field-changes';

describe('fieldChanges', () => {
  it.each([
    {
      name: 'keeps only the fields that changed',
      before: { id: 4, email: 'a@example.com', name: 'Ann', is_active: true },
      after: { id: 4, email: 'b@example.com', name: 'Ann', is_active: false },
      expected: [
        { field: 'email', before: 'a@example.com', after: 'b@example.com' },
        { field: 'is_active', before: true, after: false },
      ],
    },
    {
      name: 'lists every field of a creation as added',
      before: null,
      after: { username: 'ann', roles: ['viewer'] },
      expected: [
        { field: 'username', before: undefined, after: 'ann' },
        { field: 'roles', before: undefined, after: ['viewer'] },
      ],
    },
    {
      name: 'lists every field of a deletion as removed',
      before: { username: 'ann' },
      after: null,
      expected: [{ field: 'username', before: 'ann', after: undefined }],
    },
    {
      name: 'compares arrays by content',
      before: { roles: ['viewer'] },
      after: { roles: ['viewer'] },
      expected: [],
    },
    {
      name: 'names nested fields with dots',
      before: { settings: { theme: 'light', size: 2 } },
      after: { settings: { theme: 'dark', size: 2 } },
      expected: [{ field: 'settings.theme', before: 'light', after: 'dark' }],
    },
    {
      name: 'treats null and a missing field alike',
      before: { last_login: null },
      after: {},
      expected: [],
    },
    {
      name: 'compares bare values as one field',
      before: 'old text',
      after: 'new text',
      expected: [{ field: 'value', before: 'old text', after: 'new text' }],
    },
    { name: 'has nothing to show without values', before: null, after: null, expected: [] },
  ])('$name', ({ before, after, expected }) => {
    expect(fieldChanges(before, after)).toEqual(expected);
  });
});
