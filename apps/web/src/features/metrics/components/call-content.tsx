import type { LlmCallContent, LlmCallDetail, LlmContentMessage } from '@lumi/contract';
import { Eye } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { useHasPermission } from '@/lib/permissions';
import { useLlmCallContent } from '../api/get-llm-call-content';
import { panelErrorMessage } from '../lib/panel-error';
import { MetricCard } from './metric-card';
import { PanelError, PanelSkeleton } from './panel-states';

function Messages({ title, messages }: { title: string; messages: LlmContentMessage[] }) {
  return (
    <section aria-label={title} className="space-y-2">
      <h3 className="text-sm font-medium">{title}</h3>
      {messages.length === 0 && <p className="text-sm text-muted-foreground">Nothing was sent.</p>}
      {messages.map((message, index) => (
        <div key={index} className="rounded-md border bg-muted/40 p-3">
          <p className="mb-1 text-xs font-medium tracking-wide text-muted-foreground uppercase">
            {message.role}
          </p>
          <p className="text-sm break-words whitespace-pre-wrap">{message.text}</p>
        </div>
      ))}
    </section>
  );
}

function Shown({ content }: { content: LlmCallContent }) {
  return (
    <div className="space-y-4">
      <p className="text-xs text-muted-foreground">
        {content.redactions > 0 &&
          `${content.redactions} ${content.redactions === 1 ? 'match' : 'matches'} redacted before storing. `}
        {content.truncated && 'Cut to the stored limit. '}
        Removed {formatDateTime(content.expires_at)}.
      </p>
      <Messages title="Prompt" messages={content.prompt} />
      <Messages title="Completion" messages={content.completion} />
    </div>
  );
}

/**
 * The call's prompt and completion (docs/operators/metrics.md, "Content of calls"), when its API key kept
 * them: read only on request and with llm:content:read, because each read is an audited view.
 */
export function CallContent({ call }: { call: LlmCallDetail }) {
  const canRead = useHasPermission('llm:content:read');
  const [asked, setAsked] = useState(false);
  const content = useLlmCallContent(call.id, asked && canRead && call.content === 'kept');
  return (
    <MetricCard title="Prompt and Completion" className="lg:col-span-2">
      {call.content === 'none' && (
        <p className="text-sm text-muted-foreground">
          Not kept: the API key that reported this call does not keep content. An admin can turn it on for a
          key under Administration → API Keys → Content.
        </p>
      )}
      {call.content === 'removed' && (
        <p className="text-sm text-muted-foreground">
          Removed: content is kept for fewer days than calls (LUMI_CONTENT_RETENTION_DAYS).
        </p>
      )}
      {call.content === 'kept' && !canRead && (
        <Alert variant="info">Kept. Reading it needs the llm:content:read permission.</Alert>
      )}
      {call.content === 'kept' && canRead && !asked && (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-muted-foreground">
            Kept, and may hold what people wrote to the bot. Showing it is recorded in the audit log.
          </p>
          <Button variant="secondary" onClick={() => setAsked(true)}>
            <Eye aria-hidden />
            Show Prompt and Completion
          </Button>
        </div>
      )}
      {asked && content.isPending && <PanelSkeleton label="prompt and completion" rows={4} />}
      {asked && content.isError && (
        <PanelError message={panelErrorMessage(content.error)} onRetry={() => void content.refetch()} />
      )}
      {content.data && <Shown content={content.data} />}
    </MetricCard>
  );
}
