import type { Template } from '@lumi/contract';
import { History, Send, Trash2 } from 'lucide-react';
import type { Ref } from 'react';
import { Button } from '@/components/ui/button';

export interface EditorPanels {
  variables: boolean;
  preview: boolean;
  test: boolean;
}

interface EditorHeaderProps {
  ref: Ref<HTMLHeadingElement>;
  template: Template | null;
  panels: EditorPanels;
  onTogglePanel: (panel: keyof EditorPanels) => void;
  onShowHistory: () => void;
  onCancel: () => void;
  /** Shown only to those who may change templates (templates:write): Save, and Delete. */
  canWrite: boolean;
  /** Shown only to those who may send (templates:send): the Test toggle and Send now. */
  canSend: boolean;
  onSendNow: () => void;
  onDelete: () => void;
  saving: boolean;
}

/**
 * 'Create New Template', 'Edit Template: {name}' or, for a reader, 'Template: {name}', with its version,
 * the panel toggles, and the actions the user may take.
 */
export function EditorHeader(props: EditorHeaderProps) {
  const { ref, template, panels, onTogglePanel, canWrite } = props;
  const toggles: Array<[keyof EditorPanels, string]> = [
    ['variables', 'Variables'],
    ['preview', 'Preview'],
    // Spec section 2: the Test panel is for existing templates only.
    ...(template && props.canSend ? [['test', 'Test'] as [keyof EditorPanels, string]] : []),
  ];
  const title = !template
    ? 'Create New Template'
    : `${canWrite ? 'Edit Template' : 'Template'}: ${template.template_name}`;
  return (
    <div className="flex flex-wrap items-start justify-between gap-3 border-b p-4">
      <div className="min-w-0">
        <h2 ref={ref} tabIndex={-1} className="text-lg font-semibold break-words outline-none">
          {title}
        </h2>
        {template && <p className="text-sm text-muted-foreground">Version {template.version}</p>}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <div role="group" aria-label="Panels" className="flex rounded-md border p-0.5">
          {toggles.map(([panel, label]) => (
            <Button
              key={panel}
              size="sm"
              variant={panels[panel] ? 'primary' : 'ghost'}
              aria-pressed={panels[panel]}
              onClick={() => onTogglePanel(panel)}
              className="h-7"
            >
              {label}
            </Button>
          ))}
        </div>
        {template && props.canSend && (
          <Button variant="secondary" size="sm" onClick={props.onSendNow}>
            <Send aria-hidden />
            Send now
          </Button>
        )}
        {template && (
          <Button variant="secondary" size="sm" onClick={props.onShowHistory}>
            <History aria-hidden />
            History
          </Button>
        )}
        {template && canWrite && (
          <Button variant="secondary" size="sm" onClick={props.onDelete}>
            <Trash2 aria-hidden className="text-destructive" />
            Delete
          </Button>
        )}
        <Button variant="secondary" size="sm" onClick={props.onCancel}>
          {canWrite ? 'Cancel' : 'Close'}
        </Button>
        {canWrite && (
          <Button type="submit" size="sm" disabled={props.saving}>
            {props.saving ? 'Saving...' : 'Save'}
          </Button>
        )}
      </div>
    </div>
  );
}
