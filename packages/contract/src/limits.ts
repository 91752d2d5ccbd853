import { z } from 'zod';
import { idText, wholeNumberText } from './fields.js';
import { featureNameSchema, telegramIdSchema } from './telemetry/events.js';
import { directionControlReason, groupedNumber } from './text.js';

/**
 * Spend and abuse control (docs/operators/limits.md): limits on the cost, tokens or requests of a chat, a
 * user or a feature, or of each chat or user by default, over the current minute, hour, day or month (days
 * and months in LUMI_TIMEZONE); bans and allowlists of chats and users; and the decision a bot asks for
 * before each LLM call (POST /api/bot/allowance).
 */

/** Who a limit is on: one chat, user or feature, or each chat or user that has no limit of its own. */
export const LIMIT_SCOPES = ['chat', 'user', 'feature', 'each_chat', 'each_user'] as const;
export type LimitScope = (typeof LIMIT_SCOPES)[number];
export const LIMIT_METRICS = ['cost_usd', 'tokens', 'requests'] as const;
export type LimitMetric = (typeof LIMIT_METRICS)[number];
/** The current calendar minute, hour, day or month; days and months begin at midnight in LUMI_TIMEZONE. */
export const LIMIT_WINDOWS = ['minute', 'hour', 'day', 'month'] as const;
export type LimitWindow = (typeof LIMIT_WINDOWS)[number];
/** Soft: over it, calls are still allowed and the limit shows as reached (and alerts); hard: denied. */
export const LIMIT_MODES = ['soft', 'hard'] as const;
export type LimitMode = (typeof LIMIT_MODES)[number];

export const LIMIT_SCOPE_LABELS: Record<LimitScope, string> = {
  chat: 'Chat',
  user: 'User',
  feature: 'Feature',
  each_chat: 'Each chat',
  each_user: 'Each user',
};
export const LIMIT_METRIC_LABELS: Record<LimitMetric, string> = {
  cost_usd: 'Cost (USD)',
  tokens: 'Tokens',
  requests: 'Requests',
};
export const LIMIT_WINDOW_LABELS: Record<LimitWindow, string> = {
  minute: 'per minute',
  hour: 'per hour',
  day: 'per day',
  month: 'per month',
};

export const LIMITS_LIMITS = {
  /** How many limits and access rules Lumi keeps (each kept in memory on every instance). */
  limitsMax: 20_000,
  rulesMax: 100_000,
  amountMax: 1_000_000_000,
  /** A chat's or user's id, or a feature's name. */
  subjectMax: 64,
  noteMax: 500,
  reasonMax: 500,
  /** Limits, access rules and denials listed per page at most. */
  limitsPageMax: 200,
  rulesPageMax: 200,
  denialsPageMax: 200,
} as const;

export const LIMIT_MESSAGES = {
  subjectRequired: 'Name the chat, user or feature this limit is on',
  subjectNone: 'A limit on each chat or each user names no subject',
  chatId: 'Must be a Telegram chat id such as -1001234567890',
  amountPositive: 'Must be a number above 0',
  raiseBoth: 'A raise needs both its amount and when it ends',
  raiseAbove: 'A raise must be above the limit',
  raiseEnded: 'The raise’s end must be in the future',
  expiryPassed: 'The expiry must be in the future',
  reasonRequired: 'Give a reason, so the next operator knows why',
  costMin: 'Must be at least $0.000001, the smallest amount of dollars Lumi shows',
} as const;

/** The smallest cost amount: usage and what is left are answered rounded to a millionth of a dollar. */
const COST_AMOUNT_MIN = 0.000001;

/** Free text an operator writes (a note, a reason) must read as it was written (text.ts). */
function readsAsWritten(text: string, ctx: z.RefinementCtx): void {
  const message = directionControlReason(text);
  if (message) ctx.addIssue({ code: 'custom', message });
}

const amount = z
  .number({ error: LIMIT_MESSAGES.amountPositive })
  .positive(LIMIT_MESSAGES.amountPositive)
  .max(LIMITS_LIMITS.amountMax, `Must be at most ${groupedNumber(LIMITS_LIMITS.amountMax)}`);
const futureTime = z.iso.datetime({
  offset: true,
  error: 'Must be a date and time such as 2026-12-01T09:00:00Z',
});

export const limitInputSchema = z
  .object({
    scope: z.enum(LIMIT_SCOPES),
    /** The chat id, user id or feature name; null (or left out) for each_chat and each_user. */
    subject: z
      .string()
      .trim()
      .max(LIMITS_LIMITS.subjectMax, `At most ${LIMITS_LIMITS.subjectMax} characters`)
      .nullish(),
    metric: z.enum(LIMIT_METRICS),
    window: z.enum(LIMIT_WINDOWS),
    amount,
    mode: z.enum(LIMIT_MODES),
    /** A temporary raise: `raise_amount` replaces `amount` until `raise_until`. */
    raise_amount: amount.nullish(),
    raise_until: futureTime.nullish(),
    note: z
      .string()
      .trim()
      .max(LIMITS_LIMITS.noteMax, `At most ${LIMITS_LIMITS.noteMax} characters`)
      .superRefine(readsAsWritten)
      .default(''),
  })
  .superRefine((limit, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    const each = limit.scope === 'each_chat' || limit.scope === 'each_user';
    if (each && limit.subject) issue('subject', LIMIT_MESSAGES.subjectNone);
    if (!each && !limit.subject) issue('subject', LIMIT_MESSAGES.subjectRequired);
    // A subject too long has said so already (subjectMax): one message a field.
    const named = limit.subject && limit.subject.length <= LIMITS_LIMITS.subjectMax;
    if ((limit.scope === 'chat' || limit.scope === 'user') && named) {
      if (!telegramIdSchema.safeParse(limit.subject).success) issue('subject', LIMIT_MESSAGES.chatId);
    }
    if (limit.scope === 'feature' && named) {
      const feature = featureNameSchema.safeParse(limit.subject);
      if (!feature.success) issue('subject', feature.error.issues[0]!.message);
    }
    if ((limit.raise_amount == null) !== (limit.raise_until == null)) {
      issue(limit.raise_amount == null ? 'raise_amount' : 'raise_until', LIMIT_MESSAGES.raiseBoth);
    } else if (limit.raise_amount != null && limit.raise_amount <= limit.amount) {
      issue('raise_amount', LIMIT_MESSAGES.raiseAbove);
    }
    for (const field of ['amount', 'raise_amount'] as const) {
      const amount = limit[field];
      if (amount == null) continue;
      if (limit.metric === 'cost_usd') {
        if (amount < COST_AMOUNT_MIN) issue(field, LIMIT_MESSAGES.costMin);
      } else if (!Number.isInteger(amount)) {
        issue(field, `A number of ${limit.metric} must be a whole number`);
      }
    }
  })
  .transform((limit) => ({
    ...limit,
    subject: limit.subject || null,
    raise_amount: limit.raise_amount ?? null,
    raise_until: limit.raise_until ?? null,
  }));
export type LimitInput = z.input<typeof limitInputSchema>;
export type LimitValues = z.output<typeof limitInputSchema>;

/** Where a subject stands against one limit in its current window. */
export const limitUsageSchema = z.object({
  subject: z.string(),
  /** Used so far in the window: what was reported, plus for cost and tokens an estimate of calls in flight. */
  used: z.number(),
  /** The amount in force now (a raise's, while it lasts). */
  amount: z.number(),
  window_start: z.string(),
  window_end: z.string(),
});
export type LimitUsage = z.infer<typeof limitUsageSchema>;

export const limitSchema = z
  .object({
    id: z.number().int(),
    scope: z.enum(LIMIT_SCOPES),
    subject: z.string().nullable(),
    metric: z.enum(LIMIT_METRICS),
    window: z.enum(LIMIT_WINDOWS),
    amount: z.number(),
    mode: z.enum(LIMIT_MODES),
    raise_amount: z.number().nullable(),
    raise_until: z.string().nullable(),
    /** amount, or raise_amount while the raise lasts. */
    effective_amount: z.number(),
    note: z.string(),
    created_at: z.string(),
    created_by: z.string().nullable(),
    updated_at: z.string(),
    updated_by: z.string().nullable(),
    /**
     * For a limit on one subject, its usage now; for each chat or user, the subjects with the highest usage
     * in the window (at most 5), so the list shows who is near or over it.
     */
    usage: z.array(limitUsageSchema),
    /** How many calls it denied in the last 24 hours. */
    denials_24h: z.number().int(),
  })
  .meta({ id: 'Limit' });
export type Limit = z.infer<typeof limitSchema>;

/** GET /limits: a page of the limits, newest first; the next (older) from `next_cursor`. */
export const limitListQuerySchema = z.object({
  limit: wholeNumberText().pipe(z.number().int().min(1).max(LIMITS_LIMITS.limitsPageMax)).default(50),
  cursor: idText.optional(),
});
export type LimitListQuery = z.infer<typeof limitListQuerySchema>;

export const limitListResponseSchema = z.object({
  limits: z.array(limitSchema),
  /** The cursor of the next (older) page; null on the last. */
  next_cursor: z.number().int().nullable(),
  /** How many limits there are in all. */
  total: z.number().int(),
});
export type LimitListResponse = z.infer<typeof limitListResponseSchema>;

/** What a limit being written would say now: the subjects over it, or near it, in the current window. */
export const limitPreviewSchema = z.object({
  over: z.array(limitUsageSchema),
  /** Subjects at 80 % or more but not over. */
  near: z.array(limitUsageSchema),
  window_start: z.string(),
  window_end: z.string(),
});
export type LimitPreview = z.infer<typeof limitPreviewSchema>;

export const ACCESS_ACTIONS = ['ban', 'allow'] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];
export const ACCESS_SUBJECT_KINDS = ['chat', 'user'] as const;
export type AccessSubjectKind = (typeof ACCESS_SUBJECT_KINDS)[number];

export const accessRuleInputSchema = z.object({
  /** Ban: every call of the chat or user is denied; allow: no limit applies to it (a ban still wins). */
  action: z.enum(ACCESS_ACTIONS),
  subject_kind: z.enum(ACCESS_SUBJECT_KINDS),
  subject: telegramIdSchema,
  reason: z
    .string({
      // Missing: what to give; any other issue (a number, say) keeps its own message.
      error: (issue) => (issue.input == null ? LIMIT_MESSAGES.reasonRequired : undefined),
    })
    .trim()
    .min(1, LIMIT_MESSAGES.reasonRequired)
    .max(LIMITS_LIMITS.reasonMax, `At most ${LIMITS_LIMITS.reasonMax} characters`)
    .superRefine(readsAsWritten),
  /** When the rule ends by itself; null: until it is deleted. */
  expires_at: futureTime.nullish().transform((value) => value ?? null),
});
export type AccessRuleInput = z.input<typeof accessRuleInputSchema>;
export type AccessRuleValues = z.output<typeof accessRuleInputSchema>;

export const accessRuleSchema = z
  .object({
    id: z.number().int(),
    action: z.enum(ACCESS_ACTIONS),
    subject_kind: z.enum(ACCESS_SUBJECT_KINDS),
    subject: z.string(),
    reason: z.string(),
    expires_at: z.string().nullable(),
    /** False once expires_at has passed (an expired rule decides nothing and can be deleted). */
    active: z.boolean(),
    created_at: z.string(),
    created_by: z.string().nullable(),
  })
  .meta({ id: 'AccessRule' });
export type AccessRule = z.infer<typeof accessRuleSchema>;
/** GET /limits/access-rules: a page of the bans and allowlist entries, newest first. */
export const accessRuleListQuerySchema = z.object({
  limit: wholeNumberText().pipe(z.number().int().min(1).max(LIMITS_LIMITS.rulesPageMax)).default(50),
  cursor: idText.optional(),
});
export type AccessRuleListQuery = z.infer<typeof accessRuleListQuerySchema>;

export const accessRuleListResponseSchema = z.object({
  rules: z.array(accessRuleSchema),
  /** The cursor of the next (older) page; null on the last. */
  next_cursor: z.number().int().nullable(),
  /** How many there are in all, expired ones included. */
  total: z.number().int(),
});
export type AccessRuleListResponse = z.infer<typeof accessRuleListResponseSchema>;

/** Why the allowance decided as it did. */
export const ALLOWANCE_REASONS = [
  'no_limits',
  'within_limits',
  'over_soft_limit',
  'allowlisted',
  'banned',
  'limit_reached',
] as const;
export type AllowanceReason = (typeof ALLOWANCE_REASONS)[number];

export const allowanceRequestSchema = z.object({
  chat_id: telegramIdSchema.optional(),
  user_id: telegramIdSchema.optional(),
  feature: featureNameSchema.optional(),
});
export type AllowanceRequest = z.infer<typeof allowanceRequestSchema>;

/** The limit a decision names: the one that denied, else the one closest to its amount. */
export const allowanceLimitSchema = z.object({
  id: z.number().int(),
  scope: z.enum(LIMIT_SCOPES),
  subject: z.string(),
  metric: z.enum(LIMIT_METRICS),
  window: z.enum(LIMIT_WINDOWS),
  mode: z.enum(LIMIT_MODES),
  amount: z.number(),
  used: z.number(),
});

export const allowanceSchema = z
  .object({
    allowed: z.boolean(),
    reason: z.enum(ALLOWANCE_REASONS),
    limit: allowanceLimitSchema.nullable(),
    /** What is left of `limit` in its window (never below 0); null without a limit. */
    remaining: z.number().nullable(),
    /** For a denial: when asking again can succeed (the window's end, a ban's expiry); null: not by waiting. */
    retry_after_seconds: z.number().int().nullable(),
  })
  .meta({ id: 'Allowance' });
export type Allowance = z.infer<typeof allowanceSchema>;

export const limitDenialSchema = z.object({
  id: z.number().int(),
  ts: z.string(),
  chat_id: z.string().nullable(),
  user_id: z.string().nullable(),
  feature: z.string().nullable(),
  reason: z.enum(ALLOWANCE_REASONS),
  limit_id: z.number().int().nullable(),
  /** The limit that denied it, in words' parts; null for a ban, or a limit deleted since. */
  limit: limitSchema
    .pick({ scope: true, subject: true, metric: true, window: true, amount: true })
    .nullable(),
});
export type LimitDenial = z.infer<typeof limitDenialSchema>;
export const limitDenialsResponseSchema = z.object({
  denials: z.array(limitDenialSchema),
  next_cursor: z.number().int().nullable(),
  /** Denials in the last 24 hours, of the chat, user or limit filtered on. */
  total_24h: z.number().int(),
});
export type LimitDenialsResponse = z.infer<typeof limitDenialsResponseSchema>;
export const limitDenialsQuerySchema = z.object({
  limit: wholeNumberText().pipe(z.number().int().min(1).max(LIMITS_LIMITS.denialsPageMax)).default(50),
  cursor: idText.optional(),
  chat_id: telegramIdSchema.optional(),
  user_id: telegramIdSchema.optional(),
  limit_id: idText.optional(),
});
export type LimitDenialsQuery = z.infer<typeof limitDenialsQuerySchema>;

/** A chat's or user's standing: its ban or allowlist entry, and each limit on it with its usage now. */
export const subjectLimitsSchema = z
  .object({
    kind: z.enum(ACCESS_SUBJECT_KINDS),
    subject: z.string(),
    /** Its active ban or allowlist entry, if any. */
    rule: accessRuleSchema.nullable(),
    limits: z.array(allowanceLimitSchema.extend({ window_end: z.string() })),
  })
  .meta({ id: 'SubjectLimits' });
export type SubjectLimits = z.infer<typeof subjectLimitsSchema>;
export const subjectParamsSchema = z.object({
  kind: z.enum(ACCESS_SUBJECT_KINDS),
  subject: telegramIdSchema,
});

/**
 * What the bot SDK keeps a copy of to decide locally (docs/bot-developers/limits.md): every limit with the
 * amount in force, the active bans and allowlist entries, and LUMI_TIMEZONE for the windows' days.
 */
export const botLimitsSnapshotSchema = z
  .object({
    limits: z.array(
      limitSchema
        .pick({ id: true, scope: true, subject: true, metric: true, window: true, mode: true })
        .extend({
          /** The amount in force (a raise's while it lasts) and until when, if a raise ends. */
          amount: z.number(),
          amount_until: z.string().nullable(),
        }),
    ),
    rules: z.array(
      accessRuleSchema.pick({ action: true, subject_kind: true, subject: true, expires_at: true }),
    ),
    timezone: z.string(),
    server_time: z.string(),
  })
  .meta({ id: 'BotLimitsSnapshot' });
export type BotLimitsSnapshot = z.infer<typeof botLimitsSnapshotSchema>;

export const BOT_USAGE_SUBJECTS_MAX = 500;
const subjectList = <T extends z.ZodType>(item: T) =>
  z.array(item).max(BOT_USAGE_SUBJECTS_MAX, `At most ${BOT_USAGE_SUBJECTS_MAX} at once`).default([]);
export const botUsageRequestSchema = z.object({
  chat_ids: subjectList(telegramIdSchema),
  user_ids: subjectList(telegramIdSchema),
  features: subjectList(featureNameSchema),
});
export type BotUsageRequest = z.input<typeof botUsageRequestSchema>;

/** Each limit that applies to the subjects asked about, with its usage in the current window. */
export const botUsageResponseSchema = z
  .object({
    usage: z.array(limitUsageSchema.extend({ limit_id: z.number().int() })),
    server_time: z.string(),
  })
  .meta({ id: 'BotUsage' });
export type BotUsageResponse = z.infer<typeof botUsageResponseSchema>;
