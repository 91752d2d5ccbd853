import { describe, expect, it } from 'vitest';
import { changeLink, changeSummary, changeVersion, type ChangeEntry } from './change-markers.js';

const entry = (fields: Partial<ChangeEntry>): ChangeEntry => ({
  action: 'config.updated',
  resource_type: 'config_item',
  resource_id: '7',
  resource_name: 'Lumi',
  resource_current_name: 'Lumi',
  old_value: { domain: 'personalities', version: 2, content: 'a', tags: ['x'] },
  new_value: { domain: 'personalities', version: 3, content: 'b', tags: ['x'] },
  ...fields,
});

describe('change markers', () => {
  it.each<[string, Partial<ChangeEntry>, string, string | null]>([
    [
      'an edit names the fields it changed',
      {},
      "Updated personalities item 'Lumi' (content)",
      '/config?tab=personalities&q=Lumi&history=7&revision=3',
    ],
    [
      'an edit saved before entries named their version opens the history without one',
      {
        old_value: { domain: 'personalities', content: 'a' },
        new_value: { domain: 'personalities', content: 'b' },
      },
      "Updated personalities item 'Lumi' (content)",
      '/config?tab=personalities&q=Lumi&history=7',
    ],
    [
      'a creation is revision 1',
      { action: 'config.created', old_value: null, new_value: { domain: 'moods', content: 'a' } },
      "Created moods item 'Lumi'",
      '/config?tab=moods&q=Lumi&history=7&revision=1',
    ],
    [
      'a renamed item links by its name now',
      { resource_current_name: 'Lumi & co' },
      "Updated personalities item 'Lumi' (content)",
      '/config?tab=personalities&q=Lumi+%26+co&history=7&revision=3',
    ],
    [
      'a deleted item has no link',
      { action: 'config.deleted', resource_current_name: null, new_value: null },
      "Deleted personalities item 'Lumi'",
      null,
    ],
    [
      'a restore names the version it brought back',
      {
        action: 'config.restored',
        new_value: { domain: 'moods', version: 5, content: 'a', restored_from: 2 },
      },
      "Restored moods item 'Lumi' (version 2)",
      '/config?tab=moods&q=Lumi&history=7&revision=5',
    ],
    [
      'an import counts what it did and links to its tab',
      {
        action: 'config.imported',
        resource_name: null,
        old_value: null,
        new_value: { domain: 'quirks', created: 3, updated: 0 },
      },
      'Imported quirks items (3 created, 0 updated)',
      '/config?tab=quirks',
    ],
    [
      'an item without a domain has no link',
      { old_value: null, new_value: 'not json' },
      "Updated configuration item 'Lumi'",
      null,
    ],
    [
      'a template update ignores its version number',
      {
        action: 'template.updated',
        resource_type: 'template',
        resource_id: '12',
        resource_name: 'Daily',
        resource_current_name: 'Daily',
        old_value: { version: 2, template_content: 'a' },
        new_value: { version: 3, template_content: 'b' },
      },
      "Updated template 'Daily' (template_content)",
      '/messages?search=Daily&template=12&version=3',
    ],
    [
      'a budget change',
      {
        action: 'token_budget.updated',
        resource_type: 'token_budget',
        resource_name: 'openai',
        old_value: { provider: 'openai', daily_token_limit: 1000, daily_cost_limit: null },
        new_value: { provider: 'openai', daily_token_limit: 2000, daily_cost_limit: 5 },
      },
      "Updated token budget 'openai' (daily_token_limit, daily_cost_limit)",
      '/metrics?tab=token-budgets',
    ],
    [
      'a price without its numbers',
      { action: 'model_price.set', resource_type: 'model_price', resource_name: 'gpt-4o', new_value: null },
      "Set the price of 'gpt-4o'",
      '/metrics?tab=token-budgets',
    ],
  ])('%s', (_, fields, summary, link) => {
    const change = entry(fields);
    expect(changeSummary(change)).toBe(summary);
    expect(changeLink(change)).toBe(link);
  });

  it.each([
    [{ version: 4 }, 4],
    [{ version: 1.5 }, null],
    [{ version: '4' }, null],
    [null, null],
  ])('reads the version of %j as %j', (newValue, version) => {
    expect(changeVersion(entry({ new_value: newValue }))).toBe(version);
  });
});
