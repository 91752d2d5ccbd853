import {
  CONFIG_LIMITS,
  CONFIG_MESSAGES,
  configItemInputSchema,
  contentByteLength,
  parseTags,
  tagsSchema,
  type ConfigItem,
  type ConfigItemValues,
} from '@lumi/contract';
import { z } from 'zod';
import { contentToText, defaultContentMode, parseJsonObject, type ContentMode } from './content';

const fields = configItemInputSchema.shape;

/**
 * The add/edit form (spec section 5), with the contract's messages and rules: description and priority
 * are the contract's own fields, tags the comma-separated text split the way the server stores them. The
 * name is restated without the contract's early abort, so a content message can show alongside it.
 */
export const configFormSchema = z
  .object({
    name: z.string().trim().min(1, CONFIG_MESSAGES.nameRequired).max(200, CONFIG_MESSAGES.nameMax),
    description: fields.description,
    mode: z.enum(['json', 'text']),
    content: z.string(),
    priority: fields.priority,
    tags: z.string().transform((text, ctx) => {
      const parsed = tagsSchema.safeParse(parseTags(text));
      if (parsed.success) return parsed.data;
      // One message under the one tags field, whichever tag it is about.
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
      return z.NEVER;
    }),
    is_active: z.boolean(),
  })
  .superRefine(
    ({ mode, content }, ctx) => {
      const issue = (message: string) => ctx.addIssue({ code: 'custom', path: ['content'], message });
      if (content.trim() === '') issue(CONFIG_MESSAGES.contentRequired);
      else if (mode === 'json' && !parseJsonObject(content)) issue(CONFIG_MESSAGES.invalidJson);
      else if (contentByteLength(content) > CONFIG_LIMITS.maxContentBytes)
        issue(CONFIG_MESSAGES.contentTooLarge);
    },
    // Check the content even when another field is wrong, so every message shows at once.
    { when: ({ issues }) => !issues.some((issue) => ['mode', 'content'].includes(String(issue.path?.[0]))) },
  )
  // What is sent: content parsed to an object in JSON mode (checked above), kept as text in text mode.
  .transform(({ mode, content, ...rest }): ConfigItemValues => ({
    ...rest,
    content: mode === 'json' ? (JSON.parse(content) as Record<string, unknown>) : content,
  }));

export type ConfigFormValues = z.input<typeof configFormSchema>;

/** A new item's starting values: the spec's defaults (priority 1, active), its content in `mode`. */
export function newFormValues(mode: ContentMode): ConfigFormValues {
  return { name: '', description: '', mode, content: '', priority: 1, tags: '', is_active: true };
}

/** An item's own values, its content in the mode that suits it. */
export function formValuesOf(item: ConfigItem): ConfigFormValues {
  return {
    name: item.name,
    description: item.description,
    mode: defaultContentMode(item.content),
    content: contentToText(item.content),
    priority: item.priority,
    tags: item.tags.join(', '),
    is_active: item.is_active,
  };
}
