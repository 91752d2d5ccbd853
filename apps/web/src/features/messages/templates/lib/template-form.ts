import {
  TEMPLATE_DEFAULTS,
  TEMPLATE_FIELDS,
  type Template,
  type TemplateInput,
  type TemplateSnapshot,
} from '@lumi/contract';
import type { DefaultValues } from 'react-hook-form';

/** The editor's values: the contract's template input, so the form and the server check the same rules. */
export type TemplateFormValues = TemplateInput;

/**
 * A new template starts with the defaults of spec section 3 and no channel: the schema reports
 * 'Channel is required' until one is chosen.
 */
export const NEW_TEMPLATE_VALUES: DefaultValues<TemplateFormValues> = {
  ...TEMPLATE_DEFAULTS,
  template_name: '',
  template_content: '',
};

/** The fields of a saved template or version, as the editor holds them. */
export function templateFormValues(template: TemplateSnapshot): TemplateFormValues {
  return Object.fromEntries(TEMPLATE_FIELDS.map((field) => [field, template[field]])) as TemplateFormValues;
}

/** The template being edited, or none while a new one is created. */
export type EditorTarget = { kind: 'create' } | { kind: 'edit'; template: Template };
