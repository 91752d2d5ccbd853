import type { ConfigItem, FieldError } from '@lumi/contract';

export type ParsedImport = { ok: true; items: unknown[] } | { ok: false; message: string };

/** A file the console exported (`{ domain, items: [...] }`) or a bare array of items. */
export function parseImportFile(text: string): ParsedImport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, message: 'The file is not valid JSON.' };
  }
  const items = Array.isArray(data)
    ? data
    : data && typeof data === 'object' && 'items' in data && Array.isArray(data.items)
      ? (data.items as unknown[])
      : null;
  if (!items)
    return { ok: false, message: 'The file holds no "items" list (export a section to see the format).' };
  if (items.length === 0) return { ok: false, message: 'The file holds no items.' };
  return { ok: true, items };
}

function nameOf(item: unknown): string | null {
  if (item && typeof item === 'object' && 'name' in item && typeof item.name === 'string') {
    const name = item.name.trim();
    return name || null;
  }
  return null;
}

/**
 * What an import will do, as the server decides it: an item whose name (ignoring case) exists is updated
 * with a new revision, any other is created.
 */
export function importPlan(items: unknown[], existing: Pick<ConfigItem, 'name'>[]) {
  const names = new Set(existing.map((item) => item.name.toLowerCase()));
  let updated = 0;
  for (const item of items) {
    const name = nameOf(item);
    if (name && names.has(name.toLowerCase())) updated += 1;
  }
  return { created: items.length - updated, updated };
}

export interface ItemProblem {
  /** 'Item 3 (Sunny)': the position in the file, from 1, and the item's name when it has one. */
  item: string;
  field: string | null;
  message: string;
}

/** The server's `items.<index>.<field>` problems, in words an operator can find in the file. */
export function describeImportErrors(errors: FieldError[], items: unknown[]): ItemProblem[] {
  return errors.map(({ path, message }) => {
    const [, index, ...field] = path.split('.');
    const position = Number(index);
    if (!Number.isInteger(position)) return { item: 'File', field: null, message };
    const name = nameOf(items[position]);
    return {
      item: name ? `Item ${position + 1} (${name})` : `Item ${position + 1}`,
      field: field.length > 0 ? field.join('.') : null,
      message,
    };
  });
}
