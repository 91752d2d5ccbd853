import type { Template } from '@lumi/contract';
import { Send } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogFooter } from '@/components/ui/dialog';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useChannels } from '../../channels/api/list-channels';
import { useTopics } from '../../channels/api/list-topics';
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

/** Why the server would not queue it: its detail and, where it gives them, each problem it found. */
function refusal(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [errorMessage(error, 'Failed to send the message')];
  const problems = error.errors.map((problem) => problem.message).filter((text) => text !== error.detail);
  return [error.detail || 'Failed to send the message', ...problems];
}

/**
 * Send now (issue 15): the saved template goes to its channel (and topic) through the delivery queue, with
 * the editor's sample data. The dialog is the confirmation; a refusal (422: it does not render, or
 * Telegram would refuse the text) shows here, and an accepted send says so in a toast that links to it.
 */
export function SendNowDialog({ template, unsaved, sample, onOpenChange }: SendNowDialogProps) {
  const channels = useChannels();
  const topics = useTopics(template.topic_id === null ? null : template.channel_id);
  const createDelivery = useCreateDelivery();
  const navigate = useNavigate();
  // One key per opening: a second click, or a retry after a lost answer, returns the first delivery.
  const [idempotencyKey] = useState(() => crypto.randomUUID());

  const channel =
    channels.data?.find((candidate) => candidate.id === template.channel_id)?.channel_name ?? 'its channel';
  const topic = topics.data?.find((candidate) => candidate.id === template.topic_id)?.topic_name;
  const destination = topic ? `${channel} (topic ${topic})` : channel;

  const send = () =>
    createDelivery.mutate(
      { template_id: template.id, data: sample.data, idempotency_key: idempotencyKey },
      {
        onSuccess: (delivery) => {
          onOpenChange(false);
          toast.success(`'${template.template_name}' queued for ${channel}`, {
            action: {
              label: 'View delivery',
              onClick: () =>
                void navigate(`/messages?view=deliveries&${DELIVERY_PARAMS.open}=${delivery.id}`),
            },
          });
        },
      },
    );

  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      title="Send now"
      description={`Send '${template.template_name}' to ${destination} now?`}
    >
      <div className="space-y-3">
        {unsaved && (
          <Alert>Send now sends the saved version {template.version}: save first to send your changes.</Alert>
        )}
        <SampleDataField sample={sample} />
        {createDelivery.isError && (
          <Alert variant="error" title="Not sent">
            <ul className="space-y-1">
              {refusal(createDelivery.error).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </Alert>
        )}
      </div>
      <DialogFooter className="mt-5">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button onClick={send} disabled={createDelivery.isPending || sample.loading}>
          <Send aria-hidden />
          {createDelivery.isPending ? 'Sending...' : 'Send now'}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
