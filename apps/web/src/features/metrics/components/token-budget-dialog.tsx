import { zodResolver } from '@hookform/resolvers/zod';
import { providerParamsSchema, tokenBudgetInputSchema, type TokenBudget } from '@lumi/contract';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useCreateTokenBudget } from '../api/create-token-budget';
import { useUpdateTokenBudget } from '../api/update-token-budget';
import { numberFieldMessage, toNumberOrNull } from '../lib/number-form';

/** The contract's budget rules, plus the provider it is for. */
const budgetFormSchema = z.object({
  provider: providerParamsSchema.shape.provider,
  limits: tokenBudgetInputSchema,
});
type BudgetFormInput = z.input<typeof budgetFormSchema>;
type BudgetFormValues = z.output<typeof budgetFormSchema>;

const LIMIT_FIELDS = ['daily_token_limit', 'daily_cost_limit', 'is_active'] as const;

interface TokenBudgetDialogProps {
  /** The budget to change; none to create one. */
  budget?: TokenBudget;
  onOpenChange: (open: boolean) => void;
}

/** Create or change a provider's daily token budget (budgets:write). */
export function TokenBudgetDialog({ budget, onOpenChange }: TokenBudgetDialogProps) {
  const create = useCreateTokenBudget();
  const update = useUpdateTokenBudget();
  const saving = create.isPending || update.isPending;
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<BudgetFormInput, unknown, BudgetFormValues>({
    resolver: zodResolver(budgetFormSchema, { error: numberFieldMessage }),
    defaultValues: {
      provider: budget?.provider ?? '',
      limits: {
        daily_token_limit: budget?.daily_token_limit ?? null,
        daily_cost_limit: budget?.daily_cost_limit ?? null,
        is_active: budget?.is_active ?? true,
      },
    },
  });

  const onSubmit = handleSubmit(async ({ provider, limits }) => {
    setFailure(null);
    try {
      if (budget) await update.mutateAsync({ provider, input: limits });
      else await create.mutateAsync({ provider, input: limits });
      onOpenChange(false);
    } catch (error) {
      const fieldErrors = error instanceof ApiError && error.status === 422 ? error.errors : [];
      const placed = fieldErrors.filter(({ path }) => LIMIT_FIELDS.some((field) => field === path));
      for (const { path, message } of placed) {
        setError(`limits.${path as (typeof LIMIT_FIELDS)[number]}`, { type: 'server', message });
      }
      if (placed.length === 0 || placed.length < fieldErrors.length) {
        setFailure(errorMessage(error, 'Failed to save budget'));
      }
    }
  });

  const numberInput = { setValueAs: toNumberOrNull };
  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      title={budget ? `Edit Budget: ${budget.provider}` : 'Add Budget'}
      description="Daily limits reset at midnight in the server's time zone. Set either limit, or both."
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        {failure && <Alert variant="error">{failure}</Alert>}
        <Field
          label="Provider"
          error={errors.provider?.message}
          hint={budget ? undefined : 'As the bot reports it, e.g. gemini'}
        >
          <Input autoComplete="off" readOnly={Boolean(budget)} {...register('provider')} />
        </Field>
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
        <Controller
          control={control}
          name="limits.is_active"
          render={({ field }) => (
            <Checkbox
              checked={field.value ?? true}
              onCheckedChange={field.onChange}
              label="Active"
              description="An inactive budget is kept but does not limit the bot."
            />
          )}
        />
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving...' : 'Save Budget'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
