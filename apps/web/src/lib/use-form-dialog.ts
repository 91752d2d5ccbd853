import { zodResolver } from '@hookform/resolvers/zod';
import { useState, type BaseSyntheticEvent } from 'react';
import { useForm, type FieldValues, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import { toast } from '@/lib/toast';
import type { z } from 'zod';
import { errorMessage } from './api-client';
import { applyFieldErrors, type ServerFields } from './form-errors';

export type FormSchema = z.ZodType<FieldValues, FieldValues>;
type Send<S extends FormSchema> = (values: z.output<S>) => Promise<unknown>;

export interface FormDialogOptions<S extends FormSchema> extends Omit<
  UseFormProps<z.input<S>, unknown, z.output<S>>,
  'resolver'
> {
  /** Parse options for the schema, such as an error map for number inputs. */
  schemaOptions?: z.core.ParseContext<z.core.$ZodIssue>;
  /** Sends the checked values (a mutation's mutateAsync); the form is pending until it settles. */
  save: Send<S>;
  /** After a successful save, e.g. closing the dialog. */
  onSaved?: () => void;
  /** The toast after a successful save ("Template 'Digest' saved"): the dialog closes and leaves no trace. */
  successMessage?: string | ((values: z.output<S>) => string);
  /** Where a 422's messages go; the rest, and any other failure, go to the alert. */
  serverFields?: ServerFields<z.input<S>>;
  /** The alert's words when the server gives none. */
  failureMessage: string;
  /** Sees a failure first; returns true when it has shown it some other way (a conflict view), so no alert. */
  onError?: (error: unknown, values: z.output<S>) => boolean;
}

export interface FormDialogState<T extends FieldValues, TOutput> {
  form: UseFormReturn<T, unknown, TOutput>;
  /** The form's submit handler: checks with the schema, then saves. */
  onSubmit: (event?: BaseSyntheticEvent) => Promise<void>;
  /** Saves values the form has checked already, through `send` when the default request is not the one. */
  save: (values: TOutput, send?: (values: TOutput) => Promise<unknown>) => Promise<void>;
  /** The general alert's message, or null. */
  failure: string | null;
  pending: boolean;
  /** Starts over from these values (the defaults without them) with no alert. */
  reset: (values?: T) => void;
}

/**
 * The submit cycle every API form shares: the form checked with `schema` (the contract's, or one built
 * from it, so the form shows the server's own messages), one save at a time, a 422's messages under their
 * fields and anything else in one alert. The dialogs mount when they open and unmount when they close, so
 * each opening starts from the defaults; `reset` is for starting over while open.
 */
export function useFormDialog<S extends FormSchema>(
  schema: S,
  {
    schemaOptions,
    save: send,
    onSaved,
    successMessage,
    serverFields = [],
    failureMessage,
    onError,
    ...formOptions
  }: FormDialogOptions<S>,
): FormDialogState<z.input<S>, z.output<S>> {
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    ...formOptions,
    resolver: zodResolver(schema, schemaOptions),
  });
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const save = async (values: z.output<S>, request: Send<S> = send) => {
    setFailure(null);
    setPending(true);
    try {
      await request(values);
      if (successMessage) {
        toast.success(typeof successMessage === 'string' ? successMessage : successMessage(values));
      }
      onSaved?.();
    } catch (error) {
      if (onError?.(error, values)) return;
      if (!applyFieldErrors(error, serverFields, form.setError))
        setFailure(errorMessage(error, failureMessage));
    } finally {
      setPending(false);
    }
  };

  const reset = (values?: z.input<S>) => {
    setFailure(null);
    form.reset(values);
  };

  return { form, onSubmit: form.handleSubmit((values) => save(values)), save, failure, pending, reset };
}
