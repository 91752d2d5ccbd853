import type { AuditLog } from '@lumi/contract';

type Entry = Pick<AuditLog, 'action' | 'resource_type' | 'resource_name' | 'old_value' | 'new_value'>;

function domainOf(value: unknown): string | null {
  if (value && typeof value === 'object' && 'domain' in value && typeof value.domain === 'string')
    return value.domain;
  return null;
}

/**
 * Where the console shows an entry's resource: its screen, filtered to it by the name the entry kept. No
 * link after a delete (the item is gone) nor for an entry without a name (older than names in the log).
 */
export function resourceLink(log: Entry): string | null {
  const name = log.resource_name;
  if (!name || log.action.endsWith('.deleted')) return null;
  const query = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;
  switch (log.resource_type) {
    case 'user':
      return `/users${query({ search: name })}`;
    case 'config_item': {
      const domain = domainOf(log.new_value) ?? domainOf(log.old_value);
      return domain ? `/config${query({ tab: domain, q: name })}` : null;
    }
    case 'template':
      return `/messages${query({ search: name })}`;
    case 'api_key':
      return `/admin${query({ tab: 'api-keys' })}`;
    default:
      return null;
  }
}
