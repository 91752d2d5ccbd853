import {
  ACCESS_ACTIONS,
  ACCESS_SUBJECT_KINDS,
  LIMIT_MESSAGES,
  accessRuleInputSchema,
  type AccessRuleInput,
  type AccessRuleValues,
} from '@lumi/contract';
import { z } from 'zod';

/**
 * The ban or allowlist dialog's form: the expiry as a datetime-local value (the browser's time zone),
 * checked by the contract's accessRuleInputSchema so the messages are the server's, and, as the server
 * does, refusing an expiry that has passed.
 */
const accessRuleFormFields = z.object({
  action: z.enum(ACCESS_ACTIONS),
  subject_kind: z.enum(ACCESS_SUBJECT_KINDS),
  subject: z.string(),
  reason: z.string(),
  expires_at: z.string(),
});
export type AccessRuleFormValues = z.input<typeof accessRuleFormFields>;
type FormField = keyof AccessRuleFormValues;
const FORM_FIELDS = Object.keys(accessRuleFormFields.shape) as FormField[];
const isFormField = (name: unknown): name is FormField => FORM_FIELDS.includes(name as FormField);

function toInstant(local: string): string {
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? local : at.toISOString();
}

export function toAccessRuleInput(values: AccessRuleFormValues): AccessRuleInput {
  return {
    action: values.action,
    subject_kind: values.subject_kind,
    subject: values.subject.trim(),
    reason: values.reason,
    expires_at: values.expires_at ? toInstant(values.expires_at) : null,
  };
}

/** The body of a form the schema below has accepted. */
export function toAccessRuleBody(values: AccessRuleFormValues): AccessRuleValues {
  return accessRuleInputSchema.parse(toAccessRuleInput(values));
}

export function accessRuleFormSchema(now: () => number = Date.now) {
  return accessRuleFormFields.superRefine((values, ctx) => {
    const input = toAccessRuleInput(values);
    const placed = new Set<FormField>();
    for (const issue of accessRuleInputSchema.safeParse(input).error?.issues ?? []) {
      const field = issue.path[0];
      if (!isFormField(field) || placed.has(field)) continue;
      placed.add(field);
      ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
    }
    if (!placed.has('expires_at') && input.expires_at && Date.parse(input.expires_at) <= now()) {
      ctx.addIssue({ code: 'custom', path: ['expires_at'], message: LIMIT_MESSAGES.expiryPassed });
    }
  });
}

export const NEW_ACCESS_RULE: AccessRuleFormValues = {
  action: 'ban',
  subject_kind: 'chat',
  subject: '',
  reason: '',
  expires_at: '',
};

export const ACCESS_RULE_FORM_FIELDS: readonly FormField[] = FORM_FIELDS;
