import { TEMPLATE_DEFAULTS, type TemplateSnapshot } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { contentLines, settingChanges } from './version-diff';

const base: TemplateSnapshot = {
  ...TEMPLATE_DEFAULTS,
  template_name: 'Daily digest',
  channel_id: 1,
  template_content: 'Hello\n{{token_name}}\nBye',
  message_type: 'digest',
};

describe('settingChanges', () => {
  it.each<[string, Partial<TemplateSnapshot>, string[]]>([
    ['nothing', {}, []],
    ['content only', { template_content: 'Other' }, []],
    ['one flag', { enabled: false }, ['Enabled']],
    [
      'several, in the editor order',
      { parse_mode: 'MarkdownV2', template_name: 'Renamed', topic_id: 4 },
      ['Template Name', 'Topic', 'Parse Mode'],
    ],
  ])('%s', (_name, change, labels) => {
    expect(settingChanges(base, { ...base, ...change }).map((c) => c.label)).toEqual(labels);
  });
});

describe('contentLines', () => {
  it('marks removed and added lines and keeps the others', () => {
    expect(contentLines(base.template_content, 'Hello\n{{uppercase token_name}}\nBye\n')).toEqual([
      { kind: 'same', text: 'Hello' },
      { kind: 'removed', text: '{{token_name}}' },
      { kind: 'added', text: '{{uppercase token_name}}' },
      { kind: 'same', text: 'Bye' },
    ]);
  });

  it('shows identical content as unchanged lines', () => {
    expect(contentLines('a\nb', 'a\nb').every((line) => line.kind === 'same')).toBe(true);
  });
});
