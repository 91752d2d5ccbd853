import { zodResolver } from '@hookform/resolvers/zod';
import { templateInputSchema, type Template, type TemplateValues } from '@lumi/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '@/lib/api-client';
import { useCreateTemplate } from '../api/create-template';
import { staleSaveCurrent, useUpdateTemplate } from '../api/update-template';
import { NEW_TEMPLATE_VALUES, templateFormValues, type TemplateFormValues } from '../lib/template-form';

interface SaveFailure {
  message: string;
  /** Set when someone saved the template after this edit started: the template as it is now. */
  current: Template | null;
}

/**
 * The editor's form: the contract's template schema checks it, a new template is created, an existing
 * one saved with the version the edit started from (a stale save answers 409 with the current template).
 */
export function useTemplateEditorForm(template: Template | null, onSaved: () => void) {
  const form = useForm<TemplateFormValues, unknown, TemplateValues>({
    resolver: zodResolver(templateInputSchema),
    defaultValues: template ? templateFormValues(template) : NEW_TEMPLATE_VALUES,
  });
  const createTemplate = useCreateTemplate();
  const updateTemplate = useUpdateTemplate();
  const [failure, setFailure] = useState<SaveFailure | null>(null);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      if (template) {
        await updateTemplate.mutateAsync({
          id: template.id,
          input: { ...values, version: template.version },
        });
      } else {
        await createTemplate.mutateAsync(values);
      }
      onSaved();
    } catch (error) {
      setFailure({
        message: errorMessage(error, 'Failed to save template'),
        current: staleSaveCurrent(error),
      });
    }
  });

  /** Shows a template as saved on the server (after a restore, or to reload after a stale save). */
  const load = (next: Template) => {
    setFailure(null);
    form.reset(templateFormValues(next));
  };

  return {
    form,
    submit,
    saving: createTemplate.isPending || updateTemplate.isPending,
    failure,
    load,
  };
}
