import { modelParamsSchema, modelPriceInputSchema, type ModelPrice } from '@lumi/contract';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { Input } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useSetModelPrice } from '../api/set-model-price';
import { numberFieldMessage, toNumberOrNull } from '../lib/number-form';

const priceFormSchema = z.object({ model: modelParamsSchema.shape.model, price: modelPriceInputSchema });

const PRICE_FIELDS = [
  { name: 'input_usd_per_million', label: 'Input price (USD per million tokens)' },
  { name: 'output_usd_per_million', label: 'Output price (USD per million tokens)' },
] as const;

interface ModelPriceDialogProps {
  /** The price to change; none to price another model. */
  price?: ModelPrice;
  onOpenChange: (open: boolean) => void;
}

/** Set a model's price per million tokens, used for calls the bot reports without a cost. */
export function ModelPriceDialog({ price, onOpenChange }: ModelPriceDialogProps) {
  const setPrice = useSetModelPrice();
  const { form, onSubmit, failure, pending } = useFormDialog({
    schema: priceFormSchema,
    schemaOptions: { error: numberFieldMessage },
    defaultValues: {
      model: price?.model ?? '',
      price: {
        input_usd_per_million: price?.input_usd_per_million,
        output_usd_per_million: price?.output_usd_per_million,
      },
    },
    save: ({ model, price: input }) => setPrice.mutateAsync({ model, input }),
    onSaved: () => onOpenChange(false),
    failureMessage: 'Failed to save price',
  });
  const {
    register,
    formState: { errors },
  } = form;

  const numberInput = { setValueAs: (value: unknown) => toNumberOrNull(value) ?? undefined };
  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      title={price ? `Edit Price: ${price.model}` : 'Add Model Price'}
      description="Calls stored earlier keep their cost; the price applies to calls reported from now on."
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        {failure && <Alert variant="error">{failure}</Alert>}
        <Field
          label="Model"
          error={errors.model?.message}
          hint={price ? undefined : 'The exact model name, e.g. gemini-1.5-pro'}
        >
          <Input autoComplete="off" readOnly={Boolean(price)} {...register('model')} />
        </Field>
        {PRICE_FIELDS.map(({ name, label }) => (
          <Field key={name} label={label} error={errors.price?.[name]?.message}>
            <Input
              type="number"
              inputMode="decimal"
              min={0}
              step="0.0001"
              {...register(`price.${name}`, numberInput)}
            />
          </Field>
        ))}
        <FormActions
          onCancel={() => onOpenChange(false)}
          pending={pending}
          submitLabel="Save Price"
          pendingLabel="Saving..."
        />
      </form>
    </Dialog>
  );
}
