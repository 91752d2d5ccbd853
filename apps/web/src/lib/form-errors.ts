import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client';

/**
 * The form fields a 422's messages belong to: a list where the form uses the server's names, or a map
 * from the server's name to the form's where they differ (current_password to currentPassword).
 */
export type ServerFields<T extends FieldValues> = readonly Path<T>[] | Readonly<Record<string, Path<T>>>;

function isFieldList<T extends FieldValues>(fields: ServerFields<T>): fields is readonly Path<T>[] {
  return Array.isArray(fields);
}

function fieldFor<T extends FieldValues>(fields: ServerFields<T>, name: string): Path<T> | undefined {
  if (isFieldList(fields)) return fields.find((field) => field === name);
  // Own keys only: a server name such as 'constructor' must not find the object's prototype.
  return Object.hasOwn(fields, name) ? fields[name] : undefined;
}

/**
 * Puts the per-field messages of a 422 answer under their form fields ('roles.0' goes to 'roles'); shared by every form that talks to the API.
 * Returns true when every message found a field, so the caller need not show a general alert.
 */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  fields: ServerFields<T>,
  setError: UseFormSetError<T>,
): boolean {
  if (!(error instanceof ApiError) || error.status !== 422 || error.errors.length === 0) return false;
  let allPlaced = true;
  const placed = new Set<string>();
  for (const { path, message, line, column } of error.errors) {
    const field = fieldFor(fields, path.split('.')[0] ?? path);
    if (!field) allPlaced = false;
    // The first message of a field is shown, with where in its text it is when the server says.
    else if (!placed.has(field)) {
      placed.add(field);
      const at = line !== undefined && column !== undefined ? `Line ${line}, column ${column}: ` : '';
      setError(field, { type: 'server', message: `${at}${message}` });
    }
  }
  return allPlaced;
}
