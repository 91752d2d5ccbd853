import { zodResolver } from '@hookform/resolvers/zod';
import { modelParamsSchema, modelPriceInputSchema, type ModelPrice } from '@lumi/contract';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { useSetModelPrice } from '../api/set-model-price';
import { numberFieldMessage, toNumberOrNull } from '../lib/number-form';

const priceFormSchema = z.object({ model: modelParamsSchema.shape.model, price: modelPriceInputSchema });
type PriceFormInput = z.input<typeof priceFormSchema>;
type PriceFormValues = z.output<typeof priceFormSchema>;

interface ModelPriceDialogProps {
  /** The price to change; none to price another model. */
  price?: ModelPrice;
  onOpenChange: (open: boolean) => void;
}

/** Set a model's price per million tokens, used for calls the bot reports without a cost. */
export function ModelPriceDialog({ price, onOpenChange }: ModelPriceDialogProps) {
  const setPrice = useSetModelPrice();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<PriceFormInput, unknown, PriceFormValues>({
    resolver: zodResolver(priceFormSchema, { error: numberFieldMessage }),
    defaultValues: {
      model: price?.model ?? '',
      price: {
        input_usd_per_million: price?.input_usd_per_million,
        output_usd_per_million: price?.output_usd_per_million,
      },
    },
  });

  const onSubmit = handleSubmit(({ model, price: input }) =>
    setPrice.mutate({ model, input }, { onSuccess: () => onOpenChange(false) }),
  );

  const numberInput = { setValueAs: (value: unknown) => toNumberOrNull(value) ?? undefined };
  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      title={price ? `Edit Price: ${price.model}` : 'Add Model Price'}
      description="Calls stored earlier keep their cost; the price applies to calls reported from now on."
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        {setPrice.error && (
          <Alert variant="error">{errorMessage(setPrice.error, 'Failed to save price')}</Alert>
        )}
        <Field
          label="Model"
          error={errors.model?.message}
          hint={price ? undefined : 'The exact model name, e.g. gemini-1.5-pro'}
        >
          <Input autoComplete="off" readOnly={Boolean(price)} {...register('model')} />
        </Field>
        <Field
          label="Input price (USD per million tokens)"
          error={errors.price?.input_usd_per_million?.message}
        >
          <Input
            type="number"
            inputMode="decimal"
            min={0}
            step="0.0001"
            {...register('price.input_usd_per_million', numberInput)}
          />
        </Field>
        <Field
          label="Output price (USD per million tokens)"
          error={errors.price?.output_usd_per_million?.message}
        >
          <Input
            type="number"
            inputMode="decimal"
            min={0}
            step="0.0001"
            {...register('price.output_usd_per_million', numberInput)}
          />
        </Field>
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={setPrice.isPending}>
            {setPrice.isPending ? 'Saving...' : 'Save Price'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
