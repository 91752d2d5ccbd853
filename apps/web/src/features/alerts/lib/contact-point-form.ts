import {
  ALERT_MESSAGES,
  contactPointInputSchema,
  type ContactPoint,
  type ContactPointInput,
  type ContactPointUpdate,
} from '@lumi/contract';
import { z } from 'zod';

/**
 * The contact point dialog's form: the selects hold ids as text, and both types' fields sit side by side
 * (only the chosen type's are sent). Checked with the contract's own schema, so the messages are the
 * server's; toContactPointInput turns it into the request.
 */
export const contactPointFormSchema = z
  .object({
    name: z.string(),
    type: z.enum(['telegram', 'webhook']),
    channel_id: z.string(),
    topic_id: z.string(),
    template_id: z.string(),
    url: z.string(),
  })
  .superRefine((values, ctx) => {
    const checked = contactPointInputSchema.safeParse(toContactPointInput(values));
    for (const issue of checked.error?.issues ?? []) {
      const field = String(issue.path[0] ?? '');
      if (field in values) {
        const message = field === 'channel_id' ? ALERT_MESSAGES.channelRequired : issue.message;
        ctx.addIssue({ code: 'custom', path: [field], message });
      }
    }
  });
export type ContactPointFormValues = z.input<typeof contactPointFormSchema>;

const idOrNull = (value: string) => (value ? Number(value) : null);

export function contactPointFormDefaults(point?: ContactPoint): ContactPointFormValues {
  return {
    name: point?.name ?? '',
    type: point?.type ?? 'telegram',
    channel_id: point?.channel_id ? String(point.channel_id) : '',
    topic_id: point?.topic_id ? String(point.topic_id) : '',
    template_id: point?.template_id ? String(point.template_id) : '',
    url: point?.url ?? '',
  };
}

/** The create request the form stands for. */
export function toContactPointInput(values: ContactPointFormValues): ContactPointInput {
  return values.type === 'telegram'
    ? {
        name: values.name,
        type: 'telegram',
        channel_id: idOrNull(values.channel_id) ?? Number.NaN,
        topic_id: idOrNull(values.topic_id),
        template_id: idOrNull(values.template_id),
      }
    : { name: values.name, type: 'webhook', url: values.url };
}

/** The update request: the type stays, so only its own fields are sent. */
export function toContactPointUpdate(values: ContactPointFormValues): ContactPointUpdate {
  return values.type === 'telegram'
    ? {
        name: values.name,
        channel_id: Number(values.channel_id),
        topic_id: idOrNull(values.topic_id),
        template_id: idOrNull(values.template_id),
      }
    : { name: values.name, url: values.url };
}
