import { describe, expect, it } from 'vitest';
import { apiKeyFormSchema, endOfLocalDay, toApiKeyInput } from './api-key-form';

const now = () => new Date(2025, 5, 10, 12, 0).getTime();

function firstError(values: unknown) {
  const result = apiKeyFormSchema(now).safeParse(values);
  return result.success
    ? null
    : `${result.error.issues[0]?.path.join('.')}: ${result.error.issues[0]?.message}`;
}

describe('apiKeyFormSchema', () => {
  it.each([
    {
      name: 'a valid key',
      values: { name: 'bot', scopes: ['ingest:write'], expires_on: '' },
      expected: null,
    },
    {
      name: 'a blank name',
      values: { name: '  ', scopes: ['ingest:write'], expires_on: '' },
      expected: 'name: Name is required',
    },
    {
      name: 'no scope',
      values: { name: 'bot', scopes: [], expires_on: '' },
      expected: 'scopes: Choose at least one scope',
    },
    {
      name: 'an expiry yesterday',
      values: { name: 'bot', scopes: ['config:read'], expires_on: '2025-06-09' },
      expected: 'expires_on: The expiry must be in the future',
    },
    {
      name: 'an expiry today',
      values: { name: 'bot', scopes: ['config:read'], expires_on: '2025-06-10' },
      expected: null,
    },
  ])('$name: $expected', ({ values, expected }) => {
    expect(firstError(values)).toBe(expected);
  });
});

describe('toApiKeyInput', () => {
  it('sends the end of the expiry day, or null for a key that never expires', () => {
    expect(toApiKeyInput({ name: 'bot', scopes: ['ingest:write'], expires_on: '2025-07-01' })).toEqual({
      name: 'bot',
      scopes: ['ingest:write'],
      expires_at: new Date(2025, 6, 1, 23, 59, 59, 999).toISOString(),
    });
    expect(toApiKeyInput({ name: 'bot', scopes: ['ingest:write'], expires_on: '' }).expires_at).toBeNull();
  });

  it('reads a day in the local time zone', () => {
    expect(endOfLocalDay('2025-12-31').getDate()).toBe(31);
  });
});
