import { modelParamsSchema, modelPriceInputSchema, type ModelPrice } from '@lumi/contract';
import { z } from 'zod';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useSetModelPrice } from '../api/set-model-price';
import { useSettingForm } from '../hooks/use-setting-form';
import { toNumberOrNull } from '../lib/number-form';
import { SettingDialog, type SettingText } from './setting-dialog';

const priceFormSchema = z.object({ model: modelParamsSchema.shape.model, price: modelPriceInputSchema });

const TEXT: SettingText<z.input<typeof priceFormSchema>> = {
  noun: 'Price',
  addTitle: 'Add Model Price',
  description:
    'Your price wins over the built-in catalogue. Calls stored earlier keep their cost; the price applies to calls reported from now on.',
  key: { name: 'model', label: 'Model', hint: 'The exact model name, e.g. gemini-1.5-pro' },
};

const PRICE_FIELDS = [
  { name: 'input_usd_per_million', label: 'Input price (USD per million tokens)' },
  { name: 'output_usd_per_million', label: 'Output price (USD per million tokens)' },
] as const;

const numberInput = { setValueAs: (value: unknown) => toNumberOrNull(value) ?? undefined };

interface ModelPriceDialogProps {
  /** The price to change; none to price another model. */
  price?: ModelPrice;
  onOpenChange: (open: boolean) => void;
}

/** Set a model's price per million tokens, used for calls the bot reports without a cost. */
export function ModelPriceDialog({ price, onOpenChange }: ModelPriceDialogProps) {
  const setPrice = useSetModelPrice();
  const dialog = useSettingForm(priceFormSchema, onOpenChange, {
    defaultValues: {
      model: price?.model ?? '',
      // A model without any price starts blank; a catalogue price starts as the catalogue's.
      price:
        price && price.source !== 'none'
          ? {
              input_usd_per_million: price.input_usd_per_million,
              output_usd_per_million: price.output_usd_per_million,
            }
          : { input_usd_per_million: undefined, output_usd_per_million: undefined },
    },
    save: ({ model, price: input }) => setPrice.mutateAsync({ model, input }),
    failureMessage: 'Failed to save price',
    successMessage: ({ model }) => `Price for ${model} saved`,
  });
  const { register } = dialog.form;
  const { errors } = dialog.form.formState;

  return (
    <SettingDialog dialog={dialog} onOpenChange={onOpenChange} text={TEXT} editing={price?.model}>
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
    </SettingDialog>
  );
}
