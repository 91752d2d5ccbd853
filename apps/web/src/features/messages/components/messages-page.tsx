import type { Template } from '@lumi/contract';
import { Radio } from 'lucide-react';
import { useState } from 'react';
import { AccessDenied } from '@/components/ui/access-denied';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { useHasPermission } from '@/lib/permissions';
import type { EditorTarget } from '../templates/lib/template-form';
import { ChannelsDialog } from '../channels/components/channels-dialog';
import { EditorPlaceholder } from '../templates/components/editor-placeholder';
import { TemplateEditor } from '../templates/components/template-editor';
import { TemplateList } from '../templates/components/template-list';

/** The Messages screen (spec section 2, 'Messages (/messages)'; issue 5). */
export function MessagesPage() {
  const canRead = useHasPermission('templates:read');
  const canWrite = useHasPermission('templates:write');
  const canManageChannels = useHasPermission('channels:write');
  const [target, setTarget] = useState<EditorTarget | null>(null);
  const [channelsOpen, setChannelsOpen] = useState(false);

  if (!canRead) {
    return <AccessDenied>You don&apos;t have permission to view message templates.</AccessDenied>;
  }

  const create = canWrite ? () => setTarget({ kind: 'create' }) : undefined;
  const editing = target?.kind === 'edit' ? target.template : null;

  return (
    <div>
      <PageHeader
        title="Message Templates"
        subtitle="Manage the Telegram message templates the bot sends"
        actions={
          canManageChannels && (
            <Button variant="secondary" onClick={() => setChannelsOpen(true)}>
              <Radio aria-hidden />
              Manage Channels
            </Button>
          )
        }
      />
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
      {channelsOpen && <ChannelsDialog open onOpenChange={setChannelsOpen} />}
    </div>
  );
}
