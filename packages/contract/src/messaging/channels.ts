import { z } from 'zod';
import { ID_MAX, requiredName, requiredString } from '../fields.js';
import { MESSAGING_LIMITS, MESSAGING_MESSAGES } from './constants.js';
import { booleanQuery, description, descriptionUpdate, idParam } from './shared-fields.js';

/** Telegram channels and their forum topics (docs/bot-developers/deliveries.md, "Message templates"). */

/** A numeric chat id, or a public username: 5 to 32 letters, digits and underscores after the '@'. */
export const CHAT_ID_PATTERN = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/;

const channelName = requiredName(
  MESSAGING_MESSAGES.channelNameRequired,
  MESSAGING_LIMITS.nameMax,
  MESSAGING_MESSAGES.channelNameMax,
);
const chatId = requiredString(MESSAGING_MESSAGES.chatIdRequired).regex(
  CHAT_ID_PATTERN,
  MESSAGING_MESSAGES.chatIdInvalid,
);

/** A channel's fields, the one list the create and update shapes are built from. */
const channelFields = {
  channel_name: channelName,
  chat_id: chatId,
  enabled: z.boolean(),
  description: descriptionUpdate,
};

export const channelInputSchema = z.object({
  ...channelFields,
  enabled: z.boolean().default(true),
  description,
});
export type ChannelInput = z.input<typeof channelInputSchema>;
export type ChannelValues = z.output<typeof channelInputSchema>;
/** PUT: the fields sent are changed, the others keep their values (no defaults here, on purpose). */
export const channelUpdateSchema = z.object(channelFields).partial();
export type ChannelUpdate = z.output<typeof channelUpdateSchema>;

export const channelSchema = z
  .object({
    id: z.number().int(),
    channel_name: z.string(),
    chat_id: z.string(),
    enabled: z.boolean(),
    description: z.string(),
    /**
     * Why Telegram last refused to deliver to this chat (a 403: the bot was removed or blocked), until a
     * later message gets through or the chat id is changed; null when there is no known problem.
     */
    send_problem: z.string().nullable(),
    send_problem_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Channel' });
export type Channel = z.infer<typeof channelSchema>;

export const enabledQuerySchema = z.object({ enabled: booleanQuery });
export const channelParamsSchema = z.object({ id: idParam });
export const topicParamsSchema = z.object({ id: idParam, topic_id: idParam });

const messageThreadId = z
  .number({ error: MESSAGING_MESSAGES.threadIdInvalid })
  .int(MESSAGING_MESSAGES.threadIdInvalid)
  .positive(MESSAGING_MESSAGES.threadIdInvalid)
  .max(ID_MAX, MESSAGING_MESSAGES.threadIdInvalid);
const topicName = requiredName(
  MESSAGING_MESSAGES.topicNameRequired,
  MESSAGING_LIMITS.nameMax,
  MESSAGING_MESSAGES.topicNameMax,
);

/** A topic's fields, the one list the create and update shapes are built from. */
const topicFields = { topic_name: topicName, message_thread_id: messageThreadId, enabled: z.boolean() };

export const topicInputSchema = z.object({ ...topicFields, enabled: z.boolean().default(true) });
export type TopicInput = z.input<typeof topicInputSchema>;
export type TopicValues = z.output<typeof topicInputSchema>;
/** PUT: the fields sent are changed, the others keep their values. */
export const topicUpdateSchema = z.object(topicFields).partial();
export type TopicUpdate = z.output<typeof topicUpdateSchema>;

export const topicSchema = z
  .object({
    id: z.number().int(),
    channel_id: z.number().int(),
    topic_name: z.string(),
    message_thread_id: z.number().int(),
    enabled: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Topic' });
export type Topic = z.infer<typeof topicSchema>;
