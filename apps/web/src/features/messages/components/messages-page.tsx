import type { Template } from '@lumi/contract';
import { Radio } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { lazy, useState } from 'react';
import { useSearchParams } from 'react-router';
import { AccessDenied } from '@/components/ui/access-denied';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { LazyView, ViewTabList } from '@/components/ui/view-tabs';
import { useHasPermission } from '@/lib/permissions';
import type { EditorTarget } from '../templates/lib/template-form';
import { ChannelsDialog } from '../channels/components/channels-dialog';
import { EditorPlaceholder } from '../templates/components/editor-placeholder';
import { TemplateEditor } from '../templates/components/template-editor';
import { TemplateList } from '../templates/components/template-list';

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

type MessagesView = (typeof VIEWS)[number]['value'];

/**
 * The Messages screen (spec section 2, 'Messages (/messages)'; issues 5 and 15): the templates with their
 * editor, the delivery log and the schedules. The view sits in the URL (?view=deliveries, ?view=schedules),
 * so a link or a reload opens it.
 */
export function MessagesPage() {
  const canRead = useHasPermission('templates:read');
  const canWrite = useHasPermission('templates:write');
  const canManageChannels = useHasPermission('channels:write');
  const [target, setTarget] = useState<EditorTarget | null>(null);
  const [channelsOpen, setChannelsOpen] = useState(false);
  const [params, setParams] = useSearchParams();

  if (!canRead) {
    return <AccessDenied>You don&apos;t have permission to view message templates.</AccessDenied>;
  }

  const requested = params.get('view');
  const view: MessagesView = VIEWS.find((candidate) => candidate.value === requested)?.value ?? 'templates';
  // Each view has filters of its own in the URL: another view starts without them.
  const selectView = (value: string) => setParams(value === 'templates' ? {} : { view: value });

  const create = canWrite ? () => setTarget({ kind: 'create' }) : undefined;
  const editing = target?.kind === 'edit' ? target.template : null;

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
        <Tabs.Content value="templates" className="outline-none">
          <div className="grid items-start gap-6 lg:grid-cols-[18rem_minmax(0,1fr)]">
            <TemplateList
              selectedId={editing?.id ?? null}
              onSelect={(template: Template) => setTarget({ kind: 'edit', template })}
              onCreate={create}
            />
            {target ? (
              <TemplateEditor
                // A fresh form for each template; a restore or reload of the same template keeps the editor.
                key={editing ? `edit-${editing.id}` : 'create'}
                template={editing}
                onClose={() => setTarget(null)}
                onTemplateChange={(template) => setTarget({ kind: 'edit', template })}
              />
            ) : (
              <EditorPlaceholder onCreate={create} />
            )}
          </div>
        </Tabs.Content>
        <Tabs.Content value="deliveries" className="outline-none">
          <LazyView label="Loading deliveries">
            <DeliveriesView />
          </LazyView>
        </Tabs.Content>
        <Tabs.Content value="schedules" className="outline-none">
          <LazyView label="Loading schedules">
            <SchedulesView />
          </LazyView>
        </Tabs.Content>
      </Tabs.Root>
      {channelsOpen && <ChannelsDialog open onOpenChange={setChannelsOpen} />}
    </div>
  );
}
