import { templateInputSchema, type Template } from '@lumi/contract';
import { useState } from 'react';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useCreateTemplate } from '../api/create-template';
import { staleSaveCurrent, useUpdateTemplate } from '../api/update-template';
import { NEW_TEMPLATE_VALUES, templateFormValues } from '../lib/template-form';

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
  const createTemplate = useCreateTemplate();
  const updateTemplate = useUpdateTemplate();
  const [current, setCurrent] = useState<Template | null>(null);
  const { form, onSubmit, failure, pending, reset } = useFormDialog(templateInputSchema, {
    defaultValues: template ? templateFormValues(template) : NEW_TEMPLATE_VALUES,
    save: (values) =>
      template
        ? updateTemplate.mutateAsync({ id: template.id, input: { ...values, version: template.version } })
        : createTemplate.mutateAsync(values),
    onSaved,
    successMessage: ({ template_name }) =>
      template ? `Template '${template_name}' saved` : `Template '${template_name}' created`,
    failureMessage: 'Failed to save template',
    // The save guard's refusal (the content would make a message Telegram refuses) goes under the content.
    serverFields: ['template_content'],
    onError: (error) => {
      setCurrent(staleSaveCurrent(error));
      return false;
    },
  });

  /** Shows a template as saved on the server (after a restore, or to reload after a stale save). */
  const load = (next: Template) => reset(templateFormValues(next));

  const saveFailure: SaveFailure | null = failure ? { message: failure, current } : null;
  return { form, submit: onSubmit, saving: pending, failure: saveFailure, load };
}
