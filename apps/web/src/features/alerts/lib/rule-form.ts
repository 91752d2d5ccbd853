import {
  ALERT_MESSAGES,
  ALERT_RULE_DEFAULTS,
  ALERT_RULE_FIELDS,
  alertRuleInputSchema,
  alertRuleSettings,
  type AlertConditionInput,
  type AlertRule,
} from '@lumi/contract';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from '@/lib/api-client';
import { CONDITION_DEFAULTS } from './conditions';

/**
 * The rule editor's form: the contract's own rule schema (so the messages are the server's), plus the
 * one rule the server adds: an enabled rule tells somebody.
 */
export const ruleFormSchema = alertRuleInputSchema.superRefine((rule, ctx) => {
  if (rule.enabled && rule.contact_point_ids.length === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['contact_point_ids'],
      message: ALERT_MESSAGES.contactPointsRequired,
    });
  }
});
export type RuleFormValues = z.input<typeof ruleFormSchema>;
export type RuleFormOutput = z.output<typeof ruleFormSchema>;

/** A condition as its inputs hold it: an optional name left out is an empty text, not null. */
export function conditionForForm(condition: AlertConditionInput): AlertConditionInput {
  return Object.fromEntries(
    Object.entries(condition).map(([key, value]) => [key, value ?? '']),
  ) as AlertConditionInput;
}

export function ruleFormDefaults(rule?: AlertRule): RuleFormValues {
  if (!rule) {
    return {
      name: '',
      condition: CONDITION_DEFAULTS.heartbeat_missing,
      ...ALERT_RULE_DEFAULTS,
      contact_point_ids: [],
    };
  }
  return { ...alertRuleSettings(rule), condition: conditionForForm(rule.condition) };
}

/**
 * Puts a 422's messages under the editor's fields: the rule's own fields by name and the condition's
 * by their path ('condition.seconds'). Returns true when every message found a field.
 */
export function applyRuleFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
): boolean {
  if (!(error instanceof ApiError) || error.status !== 422 || error.errors.length === 0) return false;
  let allPlaced = true;
  for (const { path, message } of error.errors) {
    const [head, field] = path.split('.');
    const target =
      head === 'condition' && field ? `condition.${field}` : ALERT_RULE_FIELDS.find((name) => name === head);
    if (target) setError(target as Path<T>, { type: 'server', message });
    else allPlaced = false;
  }
  return allPlaced;
}
