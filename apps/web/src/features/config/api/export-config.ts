import type { ConfigDomain, ConfigExport } from '@lumi/contract';
import { api } from '@/lib/api-client';
import { configPath } from './list-config-items';

/** GET /admin/api/config/{domain}/export: the domain as the JSON file an import takes back. */
export function exportConfig(domain: ConfigDomain) {
  return api.get<ConfigExport>(`${configPath(domain)}/export`);
}
