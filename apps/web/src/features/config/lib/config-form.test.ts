import { CONFIG_MESSAGES, type ConfigItem } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { configFormSchema, formValuesOf, newFormValues, type ConfigFormValues } from './config-form';

const valid: ConfigFormValues = {
  name: 'Cheerful',
  description: '',
  mode: 'json',
  content: '{"tone":"warm"}',
  priority: 3,
  tags: 'happy, warm',
  is_active: true,
};

function messages(values: Partial<ConfigFormValues>): Record<string, string> {
  const result = configFormSchema.safeParse({ ...valid, ...values });
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('configFormSchema', () => {
  it('turns the form into the item the server expects', () => {
    expect(configFormSchema.parse({ ...valid, tags: ' happy, ,warm , happy ' })).toEqual({
      name: 'Cheerful',
      description: '',
      content: { tone: 'warm' },
      priority: 3,
      tags: ['happy', 'warm'],
      is_active: true,
    });
    expect(configFormSchema.parse({ ...valid, mode: 'text', content: 'Say hi' }).content).toBe('Say hi');
  });

  it('reports every problem at once', () => {
    expect(messages({ name: '  ', content: '{"tone":' })).toEqual({
      name: CONFIG_MESSAGES.nameRequired,
      content: CONFIG_MESSAGES.invalidJson,
    });
  });

  it.each(['{"tone":', '[1, 2]', '"text"', '7'])('rejects %s in JSON mode', (content) => {
    expect(messages({ content })).toEqual({ content: 'Invalid JSON in content field' });
  });

  it('accepts any text in text mode and requires some content in either mode', () => {
    expect(messages({ mode: 'text', content: '{"tone":' })).toEqual({});
    expect(messages({ mode: 'text', content: '   ' })).toEqual({ content: CONFIG_MESSAGES.contentRequired });
    expect(messages({ content: '' })).toEqual({ content: CONFIG_MESSAGES.contentRequired });
  });

  it.each([
    [0, false],
    [1, true],
    [10, true],
    [11, false],
    [2.5, false],
    [Number.NaN, false],
  ])('priority %s is accepted: %s', (priority, ok) => {
    expect(messages({ priority })).toEqual(ok ? {} : { priority: CONFIG_MESSAGES.priority });
  });

  it('limits the tags like the server does', () => {
    expect(messages({ tags: 'x'.repeat(51) })).toEqual({ tags: CONFIG_MESSAGES.tagTooLong });
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`).join(',');
    expect(messages({ tags: many })).toEqual({ tags: CONFIG_MESSAGES.tooManyTags });
  });
});

describe('starting values', () => {
  const item: ConfigItem = {
    id: 1,
    domain: 'moods',
    name: 'Calm',
    description: 'Quiet days',
    content: { tone: 'calm' },
    is_active: false,
    tags: ['a', 'b'],
    priority: 4,
    version: 2,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    updated_by: 'admin',
  };

  it('starts a new item active, with priority 1, in the mode it is given', () => {
    expect(newFormValues('text')).toMatchObject({ mode: 'text', priority: 1, is_active: true, tags: '' });
    expect(newFormValues('json')).toMatchObject({ mode: 'json', content: '' });
  });

  it("opens an item in its content's mode", () => {
    expect(formValuesOf(item)).toMatchObject({
      mode: 'json',
      content: '{\n  "tone": "calm"\n}',
      tags: 'a, b',
    });
    expect(formValuesOf({ ...item, content: 'Be calm' })).toMatchObject({ mode: 'text', content: 'Be calm' });
  });
});
