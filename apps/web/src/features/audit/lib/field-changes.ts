/** One field that differs between an audit entry's old and new value; `undefined` means absent. */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Nested objects become dotted field names ('settings.theme'); a bare value becomes the field 'value'. */
function flatten(value: unknown, prefix = '', into: Record<string, unknown> = {}): Record<string, unknown> {
  if (value === null || value === undefined) return into;
  if (!isPlainObject(value)) {
    into[prefix || 'value'] = value;
    return into;
  }
  for (const [key, child] of Object.entries(value)) {
    const field = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(child) && Object.keys(child).length > 0) flatten(child, field, into);
    else into[field] = child;
  }
  return into;
}

/** A missing value and null both read as 'empty', so they count as the same. */
function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The fields whose value changed, in the order they first appear; unchanged fields are left out. */
export function fieldChanges(oldValue: unknown, newValue: unknown): FieldChange[] {
  const before = flatten(oldValue);
  const after = flatten(newValue);
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((field) => !sameValue(before[field], after[field]))
    .map((field) => ({ field, before: before[field], after: after[field] }));
}
