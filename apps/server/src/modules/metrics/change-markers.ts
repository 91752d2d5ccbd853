import type { ChangeMarkerAction } from '@lumi/contract';

/**
 * Change markers (docs/operators/metrics.md, "Change markers"): an audit log entry of a configuration,
 * template, budget or price change, told in one sentence, with the console screen that shows the changed
 * item.
 */

/** An entry as the log stores it, its values parsed, and what its resource is called now. */
export interface ChangeEntry {
  action: ChangeMarkerAction;
  resource_type: string;
  resource_id: string | null;
  resource_name: string | null;
  resource_current_name: string | null;
  old_value: unknown;
  new_value: unknown;
}

const VERBS: Record<string, string> = {
  created: 'Created',
  updated: 'Updated',
  deleted: 'Deleted',
  restored: 'Restored',
  imported: 'Imported',
  set: 'Set',
};

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** The configuration domain of a config item's entry (its values name it), e.g. personalities. */
function domainOf(entry: ChangeEntry): string | null {
  return text(record(entry.new_value).domain) ?? text(record(entry.old_value).domain);
}

/** The fields an update changed, in the order the new value lists them; the version is no field. */
function changedFields(oldValue: unknown, newValue: unknown): string[] {
  const before = record(oldValue);
  const after = record(newValue);
  const names = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  return names.filter(
    (name) =>
      name !== 'version' &&
      name !== 'restored_from' &&
      JSON.stringify(before[name]) !== JSON.stringify(after[name]),
  );
}

/** The kind of thing changed, as the console calls it: "personalities item", "template", "token budget". */
function kindOf(entry: ChangeEntry): string {
  if (entry.resource_type === 'config_item') {
    const domain = domainOf(entry);
    return domain ? `${domain} item` : 'configuration item';
  }
  return entry.resource_type.replaceAll('_', ' ');
}

/** One sentence: "Updated personalities item 'Lumi' (content, tags)", "Imported 4 moods items". */
export function changeSummary(entry: ChangeEntry): string {
  const verb = VERBS[entry.action.slice(entry.action.indexOf('.') + 1)] ?? entry.action;
  if (entry.action === 'config.imported') {
    const { domain, created, updated } = record(entry.new_value);
    const counts = [
      typeof created === 'number' && `${created} created`,
      typeof updated === 'number' && `${updated} updated`,
    ].filter(Boolean);
    const what = typeof domain === 'string' ? `${domain} items` : 'configuration items';
    return `${verb} ${what}${counts.length > 0 ? ` (${counts.join(', ')})` : ''}`;
  }
  if (entry.action === 'model_price.set') {
    const { input_usd_per_million: input, output_usd_per_million: output } = record(entry.new_value);
    const price =
      typeof input === 'number' && typeof output === 'number'
        ? `: $${input} input, $${output} output per million tokens`
        : '';
    return `${verb} the price of '${entry.resource_name ?? 'a model'}'${price}`;
  }
  const name = entry.resource_name === null ? '' : ` '${entry.resource_name}'`;
  const fields = entry.action.endsWith('.updated') ? changedFields(entry.old_value, entry.new_value) : [];
  const restoredFrom = record(entry.new_value).restored_from;
  const detail =
    fields.length > 0
      ? ` (${fields.join(', ')})`
      : typeof restoredFrom === 'number'
        ? ` (version ${restoredFrom})`
        : '';
  return `${verb} ${kindOf(entry)}${name}${detail}`;
}

/**
 * The version (revision) a change made, where the entry names it: template and configuration changes
 * save it, but for a creation, which is always version 1; null otherwise.
 */
export function changeVersion(entry: ChangeEntry): number | null {
  const version = record(entry.new_value).version;
  if (typeof version === 'number' && Number.isInteger(version)) return version;
  return entry.action === 'config.created' || entry.action === 'template.created' ? 1 : null;
}

const query = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

/**
 * The console screen that shows the changed item, filtered to it by the name it has now (as the audit
 * log's links do), with its history open at the revision the change made (docs/operators/metrics.md,
 * "Change markers"); or the Metrics tab that holds budgets and prices. Null once the item is gone.
 */
export function changeLink(entry: ChangeEntry): string | null {
  switch (entry.resource_type) {
    case 'config_item': {
      const domain = domainOf(entry);
      if (!domain) return null;
      if (entry.action === 'config.imported') return `/config${query({ tab: domain })}`;
      const name = entry.resource_current_name;
      if (!name) return null;
      return `/config${query({ tab: domain, q: name, ...historyParams(entry, 'history', 'revision') })}`;
    }
    case 'template': {
      const name = entry.resource_current_name;
      return name
        ? `/messages${query({ search: name, ...historyParams(entry, 'template', 'version') })}`
        : null;
    }
    case 'token_budget':
    case 'model_price':
      return `/metrics${query({ tab: 'token-budgets' })}`;
    default:
      return null;
  }
}

/** The console's parameters that open the item's history (`item`) at the version the change made (`at`). */
function historyParams(entry: ChangeEntry, item: string, at: string): Record<string, string> {
  if (entry.resource_id === null) return {};
  const version = changeVersion(entry);
  return version === null
    ? { [item]: entry.resource_id }
    : { [item]: entry.resource_id, [at]: String(version) };
}
