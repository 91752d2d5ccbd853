import { describe, expect, it } from 'vitest';
import { resourceLink } from './resource-link';

const entry = {
  action: 'config.updated',
  resource_type: 'config_item',
  resource_name: 'Sunny days',
  resource_current_name: 'Sunny days',
  old_value: { domain: 'moods', name: 'Sunny' },
  new_value: { domain: 'moods', name: 'Sunny days' },
};

describe('resourceLink', () => {
  it.each([
    ['a config item, on its tab filtered by name', entry, '/config?tab=moods&q=Sunny+days'],
    [
      'a user, on Users searched by username',
      {
        ...entry,
        action: 'user.updated',
        resource_type: 'user',
        resource_name: 'ann',
        resource_current_name: 'ann',
      },
      '/users?search=ann',
    ],
    [
      'a template, on Messages searched by name',
      {
        ...entry,
        action: 'template.test_sent',
        resource_type: 'template',
        resource_name: 'Daily digest',
        resource_current_name: 'Daily digest',
      },
      '/messages?search=Daily+digest',
    ],
    [
      'an API key, on the API keys tab',
      { ...entry, action: 'api_key.created', resource_type: 'api_key', resource_name: 'prod-bot' },
      '/admin?tab=api-keys',
    ],
    [
      'a renamed item by the name it has now',
      { ...entry, resource_name: 'Sunny', resource_current_name: 'Sunny days' },
      '/config?tab=moods&q=Sunny+days',
    ],
    [
      'an entry older than names in the log, by the name the item has now',
      { ...entry, resource_name: null },
      '/config?tab=moods&q=Sunny+days',
    ],
    ['nothing after a delete', { ...entry, action: 'config.deleted', new_value: null }, null],
    ['nothing once the item is gone', { ...entry, resource_current_name: null }, null],
    ['nothing for a resource without a screen of its own', { ...entry, resource_type: 'session' }, null],
  ])('links %s', (_name, log, expected) => {
    expect(resourceLink(log)).toBe(expected);
  });
});
