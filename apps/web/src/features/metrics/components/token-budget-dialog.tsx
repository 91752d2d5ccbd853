import { providerParamsSchema, tokenBudgetInputSchema, type TokenBudget } from '@lumi/contract';
import { z } from 'zod';
import { Field } from '@/components/ui/field';
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Input } from '@/components/ui/input';
import { useCreateTokenBudget } from '../api/create-token-budget';
import { useUpdateTokenBudget } from '../api/update-token-budget';
import { useSettingForm } from '../hooks/use-setting-form';
import { toNumberOrNull } from '../lib/number-form';
import { SettingDialog, type SettingText } from './setting-dialog';

/** The contract's budget rules, plus the provider it is for. */
const budgetFormSchema = z.object({
  provider: providerParamsSchema.shape.provider,
  limits: tokenBudgetInputSchema,
});

const TEXT: SettingText<z.input<typeof budgetFormSchema>> = {
  noun: 'Budget',
  addTitle: 'Add Budget',
  description: "Daily limits reset at midnight in the server's time zone. Set either limit, or both.",
  key: { name: 'provider', label: 'Provider', hint: 'As the bot reports it, e.g. gemini' },
};

/** The server checks only the limits, so its field names sit under `limits` in the form. */
const LIMIT_FIELDS = {
  daily_token_limit: 'limits.daily_token_limit',
  daily_cost_limit: 'limits.daily_cost_limit',
  is_active: 'limits.is_active',
} as const;

const numberInput = { setValueAs: toNumberOrNull };

interface TokenBudgetDialogProps {
  /** The budget to change; none to create one. */
  budget?: TokenBudget;
  onOpenChange: (open: boolean) => void;
}

/** Create or change a provider's daily token budget (budgets:write). */
export function TokenBudgetDialog({ budget, onOpenChange }: TokenBudgetDialogProps) {
  const create = useCreateTokenBudget();
  const update = useUpdateTokenBudget();
  const dialog = useSettingForm(budgetFormSchema, onOpenChange, {
    defaultValues: {
      provider: budget?.provider ?? '',
      limits: {
        daily_token_limit: budget?.daily_token_limit ?? null,
        daily_cost_limit: budget?.daily_cost_limit ?? null,
        is_active: budget?.is_active ?? true,
      },
    },
    save: ({ provider, limits }) => (budget ? update : create).mutateAsync({ provider, input: limits }),
    successMessage: ({ provider }) => `Budget for ${provider} ${budget ? 'saved' : 'created'}`,
    serverFields: LIMIT_FIELDS,
    failureMessage: 'Failed to save budget',
  });
  const { control, register } = dialog.form;
  const { errors } = dialog.form.formState;

  return (
    <SettingDialog dialog={dialog} onOpenChange={onOpenChange} text={TEXT} editing={budget?.provider}>
      <Field label="Daily token limit" error={errors.limits?.daily_token_limit?.message}>
        <Input
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          {...register('limits.daily_token_limit', numberInput)}
        />
      </Field>
      <Field label="Daily cost limit (USD)" error={errors.limits?.daily_cost_limit?.message}>
        <Input
          type="number"
          inputMode="decimal"
          min={0}
          step="0.01"
          {...register('limits.daily_cost_limit', numberInput)}
        />
      </Field>
      <FormCheckbox
        control={control}
        name="limits.is_active"
        label="Active"
        description="An inactive budget is kept but does not limit the bot."
      />
    </SettingDialog>
  );
}
