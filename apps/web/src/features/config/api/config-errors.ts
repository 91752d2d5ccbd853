import { configItemSchema, type ConfigItem } from '@lumi/contract';
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
