import { DEFAULT_PARSE_MODE, describeTemplateProblem, type Template } from '@lumi/contract';
import { useEffect, useRef, useState, type BaseSyntheticEvent } from 'react';
import { FormProvider, useWatch } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { useHasPermission } from '@/lib/permissions';
import { useSaveCheck } from '../hooks/use-save-check';
import { useTemplateEditorForm } from '../hooks/use-template-editor-form';
import { DeleteTemplateDialog } from './delete-template-dialog';
import { EditorHeader, type EditorPanels } from './editor-header';
import { PreviewPanel } from '../../rendering/components/preview-panel';
import { TemplateFields } from './template-fields';
import { SendNowDialog } from '../../deliveries/components/send-now-dialog';
import { TestPanel } from '../../telegram/components/test-panel';
import { SampleDataField } from '../../variables/components/sample-data-field';
import { useSampleData } from '../../variables/hooks/use-sample-data';
import { VariablesPanel } from '../../variables/components/variables-panel';
import { VersionHistoryDialog } from './version-history-dialog';

interface TemplateEditorProps {
  /** The template to edit, or none to create one. */
  template: Template | null;
  /** Leaving the editor (Cancel): the page asks first when there are unsaved changes. */
  onClose: () => void;
  /** After a save: the editor closes without a question. */
  onSaved: () => void;
  /** Whether the form holds changes not saved, so the page can ask before anything drops them. */
  onDirtyChange: (dirty: boolean) => void;
  /** The template changed on the server (a restore, or a reload after someone else saved). */
  onTemplateChange: (template: Template) => void;
  /** Opens with the version history on this version (a change marker's link to a template's change). */
  historyVersion?: number | null;
}

/**
 * The right pane's editor: header with toggles, the fields, and the Variables, Preview and Test panels.
 * Preview, Test and Send now share one sample data box. A reader (no templates:write) sees it all read-only.
 */
export function TemplateEditor({
  template,
  onClose,
  onSaved,
  onDirtyChange,
  onTemplateChange,
  historyVersion = null,
}: TemplateEditorProps) {
  const canWrite = useHasPermission('templates:write');
  const canSend = useHasPermission('templates:send');
  const { form, submit, saving, failure, load } = useTemplateEditorForm(template, onSaved);
  const [panels, setPanels] = useState<EditorPanels>({ variables: true, preview: false, test: false });
  const [historyOpen, setHistoryOpen] = useState(historyVersion !== null);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [sendOpen, setSendOpen] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const [content, parseMode, splits] = useWatch({
    control: form.control,
    name: ['template_content', 'parse_mode', 'split_long_messages'],
  });
  const sample = useSampleData(content ?? '');
  const check = useSaveCheck(content ?? '', parseMode ?? DEFAULT_PARSE_MODE, splits ?? false, canWrite);
  const { isDirty } = form.formState;
  const contentChanged =
    !template || content !== template.template_content || parseMode !== template.parse_mode;

  useEffect(() => {
    onDirtyChange(isDirty);
    return () => onDirtyChange(false);
  }, [isDirty, onDirtyChange]);
  // A refusal shown under the content (the check's, or the server's) goes once the content is edited.
  useEffect(() => {
    const { error } = form.getFieldState('template_content');
    if (error?.type === 'guard' || error?.type === 'server') form.clearErrors('template_content');
  }, [content, parseMode, form]);

  /** Saving cannot break sending: content the check found Telegram would refuse is not even sent. */
  const save = (event?: BaseSyntheticEvent) => {
    const first = check.blocking[0];
    if (contentChanged && check.upToDate && first) {
      event?.preventDefault();
      form.setError('template_content', {
        type: 'guard',
        message: `Not saved: ${describeTemplateProblem(first)}`,
      });
      return;
    }
    void submit(event);
  };

  // Focus moves to the editor; on a narrow screen it opens below the list, so it is scrolled into view too.
  useEffect(() => {
    const node = heading.current;
    if (!node) return;
    node.focus({ preventScroll: true });
    if (node.getBoundingClientRect().top > window.innerHeight / 2) node.scrollIntoView({ block: 'start' });
  }, []);

  const showTemplate = (next: Template) => {
    load(next);
    onTemplateChange(next);
  };

  const insertVariable = (name: string) => {
    const current = form.getValues('template_content') ?? '';
    form.setValue('template_content', `${current}{{${name}}}`, {
      shouldDirty: true,
      shouldValidate: form.formState.isSubmitted,
    });
  };

  const testPanel = panels.test && canSend && template;
  const sidePanels = panels.variables || panels.preview || testPanel;

  return (
    <Card>
      <FormProvider {...form}>
        <form noValidate onSubmit={save}>
          <EditorHeader
            ref={heading}
            template={template}
            panels={panels}
            onTogglePanel={(name) => setPanels((current) => ({ ...current, [name]: !current[name] }))}
            onShowHistory={() => setHistoryOpen(true)}
            onCancel={onClose}
            canWrite={canWrite}
            canSend={canSend}
            onSendNow={() => setSendOpen(true)}
            onDelete={() => setDeleteOpen(true)}
            saving={saving}
          />
          <div className="space-y-3 p-4">
            {failure && (
              <Alert
                variant="error"
                title={failure.current ? 'This template was changed meanwhile' : undefined}
              >
                <p>{failure.message}</p>
                {failure.current && (
                  <Button
                    variant="secondary"
                    size="sm"
                    className="mt-2"
                    onClick={() => failure.current && showTemplate(failure.current)}
                  >
                    Reload template
                  </Button>
                )}
              </Alert>
            )}
            {!canWrite && <Alert>Read only: changing templates needs the templates:write permission.</Alert>}
            <div
              className={cn('grid gap-4', sidePanels && 'xl:grid-cols-[minmax(0,1fr)_minmax(18rem,22rem)]')}
            >
              <fieldset disabled={!canWrite} className="min-w-0">
                <legend className="sr-only">Template</legend>
                <TemplateFields readOnly={!canWrite} problems={check} />
              </fieldset>
              {sidePanels && (
                <div className="min-w-0 space-y-4">
                  {panels.variables && <VariablesPanel onInsert={canWrite ? insertVariable : undefined} />}
                  {(panels.preview || testPanel) && (
                    <div className="rounded-lg border bg-background/50 p-3">
                      <SampleDataField sample={sample} />
                    </div>
                  )}
                  {panels.preview && (
                    <PreviewPanel
                      template={template}
                      content={content ?? ''}
                      parseMode={parseMode ?? DEFAULT_PARSE_MODE}
                      data={sample.data}
                    />
                  )}
                  {testPanel && (
                    <TestPanel template={template} unsaved={form.formState.isDirty} sample={sample} />
                  )}
                </div>
              )}
            </div>
          </div>
        </form>
      </FormProvider>
      {template && deleteOpen && (
        <DeleteTemplateDialog template={template} onOpenChange={setDeleteOpen} onDeleted={onClose} />
      )}
      {template && sendOpen && canSend && (
        <SendNowDialog
          template={template}
          unsaved={form.formState.isDirty}
          sample={sample}
          onOpenChange={setSendOpen}
        />
      )}
      {template && historyOpen && (
        <VersionHistoryDialog
          open
          onOpenChange={setHistoryOpen}
          template={template}
          initialVersion={historyVersion}
          onRestored={(restored) => {
            setHistoryOpen(false);
            showTemplate(restored);
          }}
        />
      )}
    </Card>
  );
}
