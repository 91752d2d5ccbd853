import type { z } from 'zod';
import { numberFormat } from '@/lib/intl';

/** An empty number input means "no value"; anything else is read as a number (NaN fails validation). */
export function toNumberOrNull(value: unknown): number | null {
  if (value === '' || value === null || value === undefined) return null;
  return Number(value);
}

const amount = numberFormat(undefined, { maximumFractionDigits: 6 });

/**
 * Readable messages for the number bounds of the contract's budget and price schemas; messages the
 * contract writes itself (such as "Set a daily token limit, a daily cost limit or both") take precedence.
 */
export function numberFieldMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'invalid_type' && issue.expected === 'int') return 'Enter a whole number';
  if (issue.code === 'invalid_type' && issue.expected === 'number') return 'Enter a number';
  if (issue.code === 'too_small' && issue.origin === 'number') {
    const minimum = amount.format(Number(issue.minimum));
    return issue.inclusive ? `Must be at least ${minimum}` : `Must be more than ${minimum}`;
  }
  if (issue.code === 'too_big' && issue.origin === 'number')
    return `Must be at most ${amount.format(Number(issue.maximum))}`;
  return undefined;
}
