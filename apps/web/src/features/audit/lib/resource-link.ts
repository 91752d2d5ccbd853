import type { AuditLog } from '@lumi/contract';

type Entry = Pick<
  AuditLog,
  'action' | 'resource_type' | 'resource_name' | 'resource_current_name' | 'old_value' | 'new_value'
>;

function domainOf(value: unknown): string | null {
  if (value && typeof value === 'object' && 'domain' in value && typeof value.domain === 'string')
    return value.domain;
  return null;
}

/**
 * Where the console shows an entry's resource: its screen, filtered to it by the name it has now (the
 * server says it, so a renamed item is still found). No link once the item is gone, after a delete, or
 * for a resource without a screen of its own.
 */
export function resourceLink(log: Entry): string | null {
  if (log.action.endsWith('.deleted')) return null;
  const query = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;
  if (log.resource_type === 'api_key')
    return log.resource_name ? `/admin${query({ tab: 'api-keys' })}` : null;
  const name = log.resource_current_name;
  if (!name) return null;
  switch (log.resource_type) {
    case 'user':
      return `/users${query({ search: name })}`;
    case 'config_item': {
      const domain = domainOf(log.new_value) ?? domainOf(log.old_value);
      return domain ? `/config${query({ tab: domain, q: name })}` : null;
    }
    case 'template':
      return `/messages${query({ search: name })}`;
    default:
      return null;
  }
}
