import {
  DEFAULT_MESSAGE_TYPE,
  DEFAULT_PARSE_MODE,
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
  template_name: '',
  message_type: DEFAULT_MESSAGE_TYPE,
  topic_id: null,
  description: '',
  template_content: '',
  parse_mode: DEFAULT_PARSE_MODE,
  enabled: true,
  disable_web_preview: false,
  disable_notification: false,
  allow_pinning: false,
  pin_by_default: false,
};

export function templateFormValues(template: TemplateSnapshot): TemplateFormValues {
  return {
    template_name: template.template_name,
    message_type: template.message_type,
    channel_id: template.channel_id,
    topic_id: template.topic_id,
    description: template.description,
    template_content: template.template_content,
    parse_mode: template.parse_mode,
    enabled: template.enabled,
    disable_web_preview: template.disable_web_preview,
    disable_notification: template.disable_notification,
    allow_pinning: template.allow_pinning,
    pin_by_default: template.pin_by_default,
  };
}

/** The template being edited, or none while a new one is created. */
export type EditorTarget = { kind: 'create' } | { kind: 'edit'; template: Template };
