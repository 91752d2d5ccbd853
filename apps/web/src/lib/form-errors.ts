import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client';

/**
 * Puts the per-field messages of a 422 answer under their form fields ('roles.0' goes to 'roles'); shared by every form that talks to the API.
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
