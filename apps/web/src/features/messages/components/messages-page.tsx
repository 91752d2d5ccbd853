import type { Template } from '@lumi/contract';
import { Radio } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { lazy, useCallback, useState } from 'react';
import { useSearchParams, type Location } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { AccessDenied } from '@/components/ui/access-denied';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { useUnsavedChanges } from '@/components/ui/unsaved-changes';
import { LazyViewTab, ViewTab, ViewTabList } from '@/components/ui/view-tabs';
import { templatesQueryOptions } from '@/lib/messaging-lists';
import { useHasPermission } from '@/lib/permissions';
import { idFromUrl, useViewParam } from '@/lib/url-filters';
import type { EditorTarget } from '../templates/lib/template-form';
import { ChannelsDialog } from '../channels/components/channels-dialog';
import { EditorPlaceholder } from '../templates/components/editor-placeholder';
import { TemplateEditor } from '../templates/components/template-editor';
import { TemplateList } from '../templates/components/template-list';
import { useTemplateFilters } from '../templates/hooks/use-template-filters';

// The delivery log and the schedules are views of their own that most visits to the templates never
// open: each is its own chunk.
const DeliveriesView = lazy(() =>
  import('../deliveries/components/deliveries-view').then((m) => ({ default: m.DeliveriesView })),
);
const SchedulesView = lazy(() => import('../schedules').then((m) => ({ default: m.SchedulesView })));

const VIEWS = [
  { value: 'templates', label: 'Templates' },
  { value: 'deliveries', label: 'Deliveries' },
  { value: 'schedules', label: 'Schedules' },
] as const;

const LINK_PARAMS = { template: 'template', version: 'version' } as const;

/** A navigation that closes the template editor: another page, or another view of this one. */
function leavesEditor(current: Location, next: Location): boolean {
  const view = (location: Location) => new URLSearchParams(location.search).get('view') ?? 'templates';
  return current.pathname !== next.pathname || view(current) !== view(next);
}

/** The template a link names (?template=…&version=…), once the list holds it. */
function linkedTemplate(
  params: URLSearchParams,
  templates: readonly Template[] | undefined,
): { template: Template; version: number | null } | null {
  const id = idFromUrl(params.get(LINK_PARAMS.template));
  const template = id === null ? undefined : templates?.find((candidate) => candidate.id === id);
  return template ? { template, version: idFromUrl(params.get(LINK_PARAMS.version)) } : null;
}

/**
 * The Messages screen (spec section 2, 'Messages (/messages)'; docs/operators/console-guide.md, 'Messages'):
 * the templates with their editor, the delivery log and the schedules. The view sits in the URL
 * (?view=deliveries, ?view=schedules), so a link or a reload opens it.
 */
export function MessagesPage() {
  const canRead = useHasPermission('templates:read');
  const canWrite = useHasPermission('templates:write');
  const canManageChannels = useHasPermission('channels:write');
  const [target, setTarget] = useState<EditorTarget | null>(null);
  const [channelsOpen, setChannelsOpen] = useState(false);
  const [editorDirty, setEditorDirty] = useState(false);
  const unsaved = useUnsavedChanges(editorDirty, leavesEditor);
  const onDirtyChange = useCallback((dirty: boolean) => setEditorDirty(dirty), []);
  const [params, setParams] = useSearchParams();
  const [view, selectView] = useViewParam(VIEWS, 'templates');
  const filters = useTemplateFilters();
  // The list's own query (the same key), so a linked template is found in what the list shows; asked
  // for here only when a link names one.
  const templates = useQuery({
    ...templatesQueryOptions({ channelId: filters.channelId, messageType: filters.messageType }),
    enabled: canRead && params.has(LINK_PARAMS.template),
  });

  if (!canRead) {
    return <AccessDenied>You don&apos;t have permission to view message templates.</AccessDenied>;
  }

  // A change marker's link (?search=…&template=12&version=3) opens that template's version history at
  // the version its change made, once the list has it. Choosing anything else drops the link.
  const linked = linkedTemplate(params, templates.data);
  const shown = target ?? (linked && { kind: 'edit' as const, template: linked.template });
  const show = (next: EditorTarget | null) => {
    if (linked) {
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          updated.delete(LINK_PARAMS.template);
          updated.delete(LINK_PARAMS.version);
          return updated;
        },
        { replace: true },
      );
    }
    setTarget(next);
  };
  // Another template, a new one or Cancel: edits not saved are discarded only when the operator says so.
  const choose = (next: EditorTarget | null) => unsaved.guard(() => show(next));

  const create = canWrite ? () => choose({ kind: 'create' }) : undefined;
  const editing = shown?.kind === 'edit' ? shown.template : null;

  return (
    <div>
      <PageHeader
        title="Message Templates"
        subtitle="Manage the Telegram message templates the bot sends, and follow what it sent"
        actions={
          canManageChannels && (
            <Button variant="secondary" onClick={() => setChannelsOpen(true)}>
              <Radio aria-hidden />
              Manage Channels
            </Button>
          )
        }
      />
      <Tabs.Root value={view} onValueChange={selectView}>
        <ViewTabList label="Messages views" views={VIEWS} />
        <ViewTab value="templates">
          <div className="grid items-start gap-6 lg:grid-cols-[18rem_minmax(0,1fr)]">
            <TemplateList
              selectedId={editing?.id ?? null}
              onSelect={(template: Template) => choose({ kind: 'edit', template })}
              onCreate={create}
            />
            {shown ? (
              <TemplateEditor
                // A fresh form for each template; a restore or reload of the same template keeps the editor.
                key={editing ? `edit-${editing.id}` : 'create'}
                template={editing}
                historyVersion={target ? null : (linked?.version ?? null)}
                onClose={() => choose(null)}
                onSaved={() => show(null)}
                onDirtyChange={onDirtyChange}
                onTemplateChange={(template) => show({ kind: 'edit', template })}
              />
            ) : (
              <EditorPlaceholder onCreate={create} />
            )}
          </div>
        </ViewTab>
        <LazyViewTab value="deliveries" label="Loading deliveries" view={DeliveriesView} />
        <LazyViewTab value="schedules" label="Loading schedules" view={SchedulesView} />
      </Tabs.Root>
      {channelsOpen && <ChannelsDialog open onOpenChange={setChannelsOpen} />}
      {unsaved.prompt}
    </div>
  );
}
