import type { z } from 'zod';
import { api, type RequestOptions } from '@/lib/api-client';

/** An answer that does not have the contract's shape: the panel shows its error state, never a guess. */
export class UnexpectedResponseError extends Error {
  constructor(
    path: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(`Unexpected answer from ${path}`);
  }
}

/** GET `path` and check the answer against its contract schema. */
export async function getParsed<S extends z.ZodType>(
  schema: S,
  path: string,
  options?: RequestOptions,
): Promise<z.output<S>> {
  const body = await api.get<unknown>(path, options);
  const result = schema.safeParse(body);
  if (!result.success) throw new UnexpectedResponseError(path, result.error.issues);
  return result.data;
}
