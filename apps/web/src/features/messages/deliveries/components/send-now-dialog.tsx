import type { Template } from '@lumi/contract';
import { Send } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '@/lib/toast';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogFooter } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useChannels } from '../../channels/api/list-channels';
import { useTopics } from '../../channels/api/list-topics';
import { RenderedMessage } from '../../rendering/components/rendered-message';
import { useRenderedPreview } from '../../rendering/hooks/use-rendered-preview';
import { SampleDataField } from '../../variables/components/sample-data-field';
import type { SampleDataState } from '../../variables/hooks/use-sample-data';
import { useCreateDelivery } from '../api/create-delivery';
import { DELIVERY_PARAMS } from '../hooks/use-delivery-filters';

interface SendNowDialogProps {
  template: Template;
  /** The editor holds changes that are not saved: Send now sends the saved version. */
  unsaved: boolean;
  /** The sample data the editor shares with its Preview and Test panels. */
  sample: SampleDataState;
  onOpenChange: (open: boolean) => void;
}

/** The refused delivery the server kept for this refusal, if it kept one. */
function deliveryIdOf(error: ApiError): number | null {
  const body = error.body as { delivery_id?: unknown } | undefined;
  return typeof body?.delivery_id === 'number' ? body.delivery_id : null;
}

/** Why the server would not queue it: its detail and, where it gives them, each problem it found. */
function refusal(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [errorMessage(error, 'Failed to send the message')];
  const problems = error.errors.map((problem) => problem.message).filter((text) => text !== error.detail);
  return [error.detail || 'Failed to send the message', ...problems];
}

/**
 * Send now: the saved template goes to its channel (and topic) through the delivery queue, with the
 * editor's sample data. The dialog is the confirmation: it shows where the message goes and the message
 * exactly as Telegram will show it, rendered from the saved version with that data, and Send stays off
 * while the data is not valid JSON, the preview is not up to date or Telegram would refuse the text. A
 * refusal the server keeps links to its entry in the delivery log; an accepted send says so in a toast.
 */
export function SendNowDialog({ template, unsaved, sample, onOpenChange }: SendNowDialogProps) {
  const channels = useChannels();
  const topics = useTopics(template.topic_id === null ? null : template.channel_id);
  const createDelivery = useCreateDelivery();
  const navigate = useNavigate();
  // One key per opening: a second click, or a retry after a lost answer, returns the first delivery.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const preview = useRenderedPreview({
    template,
    content: template.template_content,
    parseMode: template.parse_mode,
    data: sample.data,
  });

  const channel =
    channels.data?.find((candidate) => candidate.id === template.channel_id)?.channel_name ?? 'its channel';
  const topic = topics.data?.find((candidate) => candidate.id === template.topic_id)?.topic_name;
  const result = preview.data;
  const ready = !sample.invalid && !preview.rendering && result?.success === true;
  const refusedId = createDelivery.error instanceof ApiError ? deliveryIdOf(createDelivery.error) : null;
  const openDelivery = (id: number) =>
    void navigate(`/messages?view=deliveries&${DELIVERY_PARAMS.open}=${id}`);

  const send = () =>
    createDelivery.mutate(
      { template_id: template.id, data: sample.data, idempotency_key: idempotencyKey },
      {
        onSuccess: (delivery) => {
          onOpenChange(false);
          toast.success(`'${template.template_name}' queued for ${channel}`, {
            action: { label: 'View delivery', onClick: () => openDelivery(delivery.id) },
          });
        },
      },
    );

  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      title="Send now"
      description={`Send '${template.template_name}' to ${topic ? `${channel}, topic ${topic}` : channel} now?`}
    >
      <div className="space-y-3">
        {unsaved && (
          <Alert>Send now sends the saved version {template.version}: save first to send your changes.</Alert>
        )}
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Channel</dt>
          <dd className="font-medium break-words">{channel}</dd>
          <dt className="text-muted-foreground">Topic</dt>
          <dd className="font-medium break-words">{topic ?? 'None (the main chat)'}</dd>
        </dl>
        <SampleDataField sample={sample} />
        <section aria-labelledby="send-now-preview" className="space-y-2">
          <div className="flex items-center justify-between gap-2">
            <h3 id="send-now-preview" className="text-sm font-medium">
              The message as it will be sent
            </h3>
            <p aria-live="polite" className="text-xs text-muted-foreground">
              {preview.rendering ? 'Rendering...' : ''}
            </p>
          </div>
          {preview.isError ? (
            <Alert variant="error">{errorMessage(preview.error, 'Failed to render template')}</Alert>
          ) : result === undefined ? (
            <Skeleton className="h-20 w-full" />
          ) : (
            <>
              {!result.success && (
                <Alert variant="error" title="This message cannot be sent">
                  {result.error || 'Failed to render template'}
                </Alert>
              )}
              {result.rendered && (
                <RenderedMessage result={result} parseMode={template.parse_mode} label="Message to send" />
              )}
            </>
          )}
        </section>
        {createDelivery.isError && (
          <Alert variant="error" title="Not sent">
            <ul className="space-y-1">
              {refusal(createDelivery.error).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            {refusedId !== null && (
              <Button variant="secondary" size="sm" className="mt-2" onClick={() => openDelivery(refusedId)}>
                View the refused delivery
              </Button>
            )}
          </Alert>
        )}
      </div>
      <DialogFooter className="mt-5">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Don&apos;t send
        </Button>
        <Button onClick={send} disabled={!ready || createDelivery.isPending || sample.loading}>
          <Send aria-hidden />
          {createDelivery.isPending ? 'Sending...' : 'Send now'}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
