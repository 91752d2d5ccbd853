import { providerParamsSchema, tokenBudgetInputSchema, type TokenBudget } from '@lumi/contract';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Input } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useCreateTokenBudget } from '../api/create-token-budget';
import { useUpdateTokenBudget } from '../api/update-token-budget';
import { numberFieldMessage, toNumberOrNull } from '../lib/number-form';

/** The contract's budget rules, plus the provider it is for. */
const budgetFormSchema = z.object({
  provider: providerParamsSchema.shape.provider,
  limits: tokenBudgetInputSchema,
});

/** The server checks only the limits, so its field names sit under `limits` in the form. */
const LIMIT_FIELDS = {
  daily_token_limit: 'limits.daily_token_limit',
  daily_cost_limit: 'limits.daily_cost_limit',
  is_active: 'limits.is_active',
} as const;

interface TokenBudgetDialogProps {
  /** The budget to change; none to create one. */
  budget?: TokenBudget;
  onOpenChange: (open: boolean) => void;
}

/** Create or change a provider's daily token budget (budgets:write). */
export function TokenBudgetDialog({ budget, onOpenChange }: TokenBudgetDialogProps) {
  const create = useCreateTokenBudget();
  const update = useUpdateTokenBudget();
  const { form, onSubmit, failure, pending } = useFormDialog({
    schema: budgetFormSchema,
    schemaOptions: { error: numberFieldMessage },
    defaultValues: {
      provider: budget?.provider ?? '',
      limits: {
        daily_token_limit: budget?.daily_token_limit ?? null,
        daily_cost_limit: budget?.daily_cost_limit ?? null,
        is_active: budget?.is_active ?? true,
      },
    },
    save: ({ provider, limits }) => (budget ? update : create).mutateAsync({ provider, input: limits }),
    onSaved: () => onOpenChange(false),
    serverFields: LIMIT_FIELDS,
    failureMessage: 'Failed to save budget',
  });
  const {
    register,
    formState: { errors },
  } = form;

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
        <FormCheckbox
          control={form.control}
          name="limits.is_active"
          label="Active"
          description="An inactive budget is kept but does not limit the bot."
        />
        <FormActions
          onCancel={() => onOpenChange(false)}
          pending={pending}
          submitLabel="Save Budget"
          pendingLabel="Saving..."
        />
      </form>
    </Dialog>
  );
}
