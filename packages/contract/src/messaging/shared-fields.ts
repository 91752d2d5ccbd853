import { z } from 'zod';
import { idText } from '../fields.js';
import { MESSAGING_LIMITS, MESSAGING_MESSAGES } from './constants.js';

/** Fields several messaging schemas share; not part of the package's exports. */

/** In updates a description may be left out (kept) or null (cleared). */
export const descriptionUpdate = z
  .string()
  .trim()
  .max(MESSAGING_LIMITS.descriptionMax, MESSAGING_MESSAGES.descriptionMax)
  .nullish();
export const description = descriptionUpdate.transform((v) => v ?? '');

/** 'true' or 'false' in a query string. */
export const booleanQuery = z
  .enum(['true', 'false'], { error: "Use 'true' or 'false'" })
  .transform((v) => v === 'true')
  .optional();

export const idParam = idText;

/** Data for one rendering: sample data in the editor, a message's data when it is sent. */
export const sampleData = z
  .record(z.string(), z.unknown())
  .refine(
    (data) => JSON.stringify(data).length <= MESSAGING_LIMITS.renderDataMaxChars,
    MESSAGING_MESSAGES.renderDataTooLarge,
  )
  .default({});
