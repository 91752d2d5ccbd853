import { z } from 'zod';
import { ID_MAX, idSchema, wholeNumberText } from '../fields.js';
import { MESSAGING_LIMITS, MESSAGING_MESSAGES } from './constants.js';
import { sampleData } from './shared-fields.js';

/** Test sends and their history (spec section 7, test). */

export const testSendBodySchema = z.object({
  data: sampleData,
  /** Another channel to send to instead of the template's. */
  test_channel_id: idSchema.nullish(),
  /** A forum topic's message_thread_id to send to instead of the template's topic. */
  test_thread_id: z
    .number({ error: MESSAGING_MESSAGES.threadIdInvalid })
    .int(MESSAGING_MESSAGES.threadIdInvalid)
    .positive(MESSAGING_MESSAGES.threadIdInvalid)
    .max(ID_MAX, MESSAGING_MESSAGES.threadIdInvalid)
    .nullish(),
});
export type TestSendBody = z.input<typeof testSendBodySchema>;

export const testSendResultSchema = z
  .object({
    success: z.boolean(),
    telegram_message_id: z.number().int().nullable(),
    /** Why it failed; or, when the message went out, why it could not be pinned. */
    error: z.string().optional(),
    pinned: z.boolean(),
  })
  .meta({ id: 'TestSendResult' });
export type TestSendResult = z.infer<typeof testSendResultSchema>;

export const testSendRecordSchema = z
  .object({
    id: z.number().int(),
    template_id: z.number().int(),
    template_version: z.number().int(),
    user: z.string().nullable(),
    channel_id: z.number().int().nullable(),
    channel_name: z.string().nullable(),
    chat_id: z.string().nullable(),
    topic_id: z.number().int().nullable(),
    message_thread_id: z.number().int().nullable(),
    success: z.boolean(),
    telegram_message_id: z.number().int().nullable(),
    pinned: z.boolean(),
    error: z.string().nullable(),
    sent_at: z.string(),
  })
  .meta({ id: 'TestSendRecord' });
export type TestSendRecord = z.infer<typeof testSendRecordSchema>;

export const testHistoryQuerySchema = z.object({
  limit: wholeNumberText()
    .pipe(z.number().int().min(1).max(MESSAGING_LIMITS.testHistoryMax))
    .default(MESSAGING_LIMITS.testHistoryDefault),
});
