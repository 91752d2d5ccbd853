import { configItemSchema, type ConfigItem } from '@lumi/contract';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '@/lib/api-client';

/**
 * The item as it is now, from a 409 that refused a stale version (the server sends it as `current`).
 * Null for any other failure, including a 409 for a name that is taken.
 */
export function conflictingItem(error: unknown): ConfigItem | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const body = error.body as { current?: unknown } | undefined;
  const parsed = configItemSchema.safeParse(body?.current);
  return parsed.success ? parsed.data : null;
}

/**
 * Puts the per-field messages of a 422 answer under their form fields ('tags.3' goes to 'tags').
 * Returns true when every message found a field, so the caller need not show a general alert.
 */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): boolean {
  if (!(error instanceof ApiError) || error.status !== 422 || error.errors.length === 0) return false;
  let allPlaced = true;
  for (const { path, message } of error.errors) {
    const field = fields.find((name) => name === path.split('.')[0]);
    if (field) setError(field, { type: 'server', message });
    else allPlaced = false;
  }
  return allPlaced;
}
