import {
  LIMIT_MESSAGES,
  LIMIT_METRICS,
  LIMIT_MODES,
  LIMIT_SCOPES,
  LIMIT_WINDOWS,
  limitInputSchema,
  type Limit,
  type LimitInput,
  type LimitScope,
  type LimitValues,
} from '@lumi/contract';
import { z } from 'zod';
import { toLocalInput } from '@/lib/format';
import { activeRaise } from './limit-text';

/**
 * The limit dialog's form: the fields as its inputs hold them (numbers null while empty, the raise's end as
 * a datetime-local value in the browser's time zone), checked by the contract's limitInputSchema, so each
 * message is the server's own.
 */
const limitFormFields = z.object({
  scope: z.enum(LIMIT_SCOPES),
  subject: z.string(),
  metric: z.enum(LIMIT_METRICS),
  window: z.enum(LIMIT_WINDOWS),
  amount: z.number().nullable(),
  mode: z.enum(LIMIT_MODES),
  raise_amount: z.number().nullable(),
  raise_until: z.string(),
  note: z.string(),
});
export type LimitFormValues = z.input<typeof limitFormFields>;
type FormField = keyof LimitFormValues;

const FORM_FIELDS = Object.keys(limitFormFields.shape) as FormField[];
const isFormField = (name: unknown): name is FormField => FORM_FIELDS.includes(name as FormField);

/** Whether a scope names one subject (a chat, user or feature) rather than each chat or user. */
export function namesSubject(scope: LimitScope): boolean {
  return scope === 'chat' || scope === 'user' || scope === 'feature';
}

/** A datetime-local value (the browser's time zone) as an ISO instant; a value that is not a time stays. */
function toInstant(local: string): string {
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? local : at.toISOString();
}

/** The request the form stands for, before the contract checks it. */
export function toLimitInput(values: LimitFormValues): LimitInput {
  return {
    scope: values.scope,
    subject: namesSubject(values.scope) ? values.subject.trim() : null,
    metric: values.metric,
    window: values.window,
    // An empty amount is no number: the contract says "Must be a number above 0".
    amount: values.amount ?? Number.NaN,
    mode: values.mode,
    raise_amount: values.raise_amount,
    raise_until: values.raise_until ? toInstant(values.raise_until) : null,
    note: values.note,
  };
}

/** The body the form sends, or null while the contract refuses it (the live preview asks only then). */
export function limitBodyOf(values: LimitFormValues): LimitValues | null {
  const parsed = limitInputSchema.safeParse(toLimitInput(values));
  return parsed.success ? parsed.data : null;
}

/** The body of a form the schema below has accepted. */
export function toLimitBody(values: LimitFormValues): LimitValues {
  return limitInputSchema.parse(toLimitInput(values));
}

/**
 * The contract's issues with the input. Its rules across fields (a subject for the scope, a raise with both
 * parts) run only once every field has its type; while the amount is missing they are checked again with a
 * stand-in amount, so an empty subject is named together with the empty amount rather than after it.
 */
function contractIssues(input: LimitInput) {
  const issues = limitInputSchema.safeParse(input).error?.issues ?? [];
  if (Number.isFinite(input.amount)) return issues;
  const standIn = limitInputSchema.safeParse({ ...input, amount: 1 }).error?.issues ?? [];
  const aboutAmounts = (path: PropertyKey | undefined) => path === 'amount' || path === 'raise_amount';
  return [...issues, ...standIn.filter((issue) => !aboutAmounts(issue.path[0]))];
}

/**
 * The contract's messages under the form's fields, and the server's one rule the contract leaves to it
 * that the browser can check too: a raise ends in the future (the server's clock has the last word).
 */
export function limitFormSchema(now: () => number = Date.now) {
  return limitFormFields.superRefine((values, ctx) => {
    const input = toLimitInput(values);
    const placed = new Set<FormField>();
    for (const issue of contractIssues(input)) {
      const field = issue.path[0];
      if (!isFormField(field) || placed.has(field)) continue;
      placed.add(field);
      ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
    }
    if (!placed.has('raise_until') && input.raise_until && Date.parse(input.raise_until) <= now()) {
      ctx.addIssue({ code: 'custom', path: ['raise_until'], message: LIMIT_MESSAGES.raiseEnded });
    }
  });
}

/** A new limit: a hard cap of each chat's spend per day, the common first limit. */
export const NEW_LIMIT: LimitFormValues = {
  scope: 'each_chat',
  subject: '',
  metric: 'cost_usd',
  window: 'day',
  amount: null,
  mode: 'hard',
  raise_amount: null,
  raise_until: '',
  note: '',
};

/**
 * A raise's end as the Until field holds it: to the minute, and to the second when it has seconds (set
 * through the API), so that saving the form unchanged keeps it as it was and a raise in its last minute
 * does not read as ended.
 */
function raiseEndInput(iso: string): string {
  const seconds = new Date(iso).getSeconds();
  return seconds === 0 ? toLocalInput(iso) : `${toLocalInput(iso)}:${String(seconds).padStart(2, '0')}`;
}

/** An existing limit's form. A raise that has ended is left out: saving drops it. */
export function limitFormOf(limit: Limit, now: number = Date.now()): LimitFormValues {
  const raise = activeRaise(limit, now);
  return {
    scope: limit.scope,
    subject: limit.subject ?? '',
    metric: limit.metric,
    window: limit.window,
    amount: limit.amount,
    mode: limit.mode,
    raise_amount: raise?.amount ?? null,
    raise_until: raise ? raiseEndInput(raise.until) : '',
    note: limit.note,
  };
}

/** The form's fields, where a 422's messages go; the server names them as the form does. */
export const LIMIT_FORM_FIELDS: readonly FormField[] = FORM_FIELDS;
