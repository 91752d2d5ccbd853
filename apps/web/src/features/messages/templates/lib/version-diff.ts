import { diffLines } from 'diff';
import type { TemplateSnapshot } from '@lumi/contract';

type SettingField = Exclude<keyof TemplateSnapshot, 'template_content'>;

/**
 * The settings a version keeps besides its content, with the editor's labels, in the editor's order; a
 * field the contract adds fails to compile here until it has a label.
 */
const LABELS: Record<SettingField, string> = {
  template_name: 'Template Name',
  message_type: 'Message Type',
  channel_id: 'Channel',
  topic_id: 'Topic',
  description: 'Description',
  parse_mode: 'Parse Mode',
  enabled: 'Enabled',
  disable_web_preview: 'Disable Web Preview',
  disable_notification: 'Disable Notification',
  allow_pinning: 'Allow Pinning',
  pin_by_default: 'Pin by Default',
  split_long_messages: 'Split Long Messages',
};
export const SETTING_LABELS = Object.entries(LABELS) as ReadonlyArray<[SettingField, string]>;

export interface SettingChange {
  field: SettingField;
  label: string;
}

/** The settings that differ between two versions, field by field. */
export function settingChanges(before: TemplateSnapshot, after: TemplateSnapshot): SettingChange[] {
  return SETTING_LABELS.filter(([field]) => before[field] !== after[field]).map(([field, label]) => ({
    field,
    label,
  }));
}

export interface ContentLine {
  kind: 'added' | 'removed' | 'same';
  text: string;
}

/**
 * The content compared line by line (jsdiff's line diff), one entry per line. A line break at the very end
 * is not a change a reader can see (Telegram drops it), so it does not mark the last line as changed.
 */
export function contentLines(before: string, after: string): ContentLine[] {
  return diffLines(before, after, { ignoreNewlineAtEof: true, stripTrailingCr: true }).flatMap((part) => {
    const kind = part.added ? 'added' : part.removed ? 'removed' : 'same';
    return part.value
      .replace(/\n$/, '')
      .split('\n')
      .map((text) => ({ kind, text }));
  });
}
