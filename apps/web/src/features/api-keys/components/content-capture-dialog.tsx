import { LLM_CONTENT_LIMITS, LLM_CONTENT_REDACTION_PRESETS, type ApiKey } from '@lumi/contract';
import { Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/dialog-form';
import { Field } from '@/components/ui/field';
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Textarea } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useSetApiKeyContent } from '../api/set-api-key-content';
import { contentFormSchema, contentFormValues, patternLines, toContentInput } from '../lib/content-form';

/**
 * A key's content settings (docs/operators/metrics.md, "Content of calls"): whether Lumi keeps the prompt
 * and completion of the calls it reports, and the patterns replaced with "[redacted]" before anything is
 * stored. Off for every key until an admin turns it on here.
 */
export function ContentCaptureDialog({
  apiKey,
  onOpenChange,
}: {
  apiKey: ApiKey;
  onOpenChange: (open: boolean) => void;
}) {
  const close = () => onOpenChange(false);
  const save = useSetApiKeyContent(apiKey.id);
  const dialog = useFormDialog(contentFormSchema, {
    defaultValues: contentFormValues(apiKey),
    save: (values) => save.mutateAsync(toContentInput(values)),
    onSaved: close,
    successMessage: `Content settings of '${apiKey.name}' saved`,
    serverFields: { content_redactions: 'patterns' },
    failureMessage: 'Failed to save the content settings',
  });
  const { register, control, setValue, getValues } = dialog.form;
  const { errors } = dialog.form.formState;
  const present = new Set(patternLines(dialog.form.watch('patterns')));
  const add = (pattern: string) => {
    const text = getValues('patterns').trimEnd();
    setValue('patterns', text ? `${text}\n${pattern}` : pattern, { shouldDirty: true, shouldValidate: true });
  };

  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      title={`Content: ${apiKey.name}`}
      description="Prompts and completions can hold what people wrote to the bot. Keep them only when you need to read them."
    >
      <DialogForm dialog={dialog} onCancel={close} submitLabel="Save">
        <FormCheckbox
          control={control}
          name="capture_content"
          label="Keep prompts and completions"
          description={`Of the calls this key reports from now on, at most ${LLM_CONTENT_LIMITS.textMax.toLocaleString('en')} characters of each side, removed after LUMI_CONTENT_RETENTION_DAYS. Reading them needs the llm:content:read permission, and every view is audited.`}
        />
        <Field
          label="Redact before storing (optional)"
          error={errors.patterns?.message}
          hint={`Regular expressions, one per line (at most ${LLM_CONTENT_LIMITS.redactionsMax}); each match is stored as [redacted].`}
        >
          <Textarea rows={4} spellCheck={false} className="font-mono text-xs" {...register('patterns')} />
        </Field>
        <div className="flex flex-wrap gap-2" aria-label="Common patterns" role="group">
          {LLM_CONTENT_REDACTION_PRESETS.map((preset) => (
            <Button
              key={preset.label}
              type="button"
              variant="secondary"
              size="sm"
              disabled={present.has(preset.pattern)}
              onClick={() => add(preset.pattern)}
            >
              <Plus aria-hidden />
              {preset.label}
            </Button>
          ))}
        </div>
      </DialogForm>
    </Dialog>
  );
}
