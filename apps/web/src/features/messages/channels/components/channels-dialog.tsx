import type { Channel, Topic } from '@lumi/contract';
import { useState } from 'react';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { useDeleteChannel } from '../api/delete-channel';
import { useDeleteTopic } from '../api/delete-topic';
import { ChannelForm } from './channel-form';
import { ChannelList } from './channel-list';
import { ChannelTopics } from './channel-topics';

type View = { kind: 'list' } | { kind: 'form'; channel?: Channel } | { kind: 'topics'; channel: Channel };
type Deleting = { kind: 'channel'; channel: Channel } | { kind: 'topic'; channel: Channel; topic: Topic };

/**
 * 'Manage Channels' (spec section 2 says 'coming soon'; docs/bot-developers/deliveries.md,
 * 'Message templates'): channels and their forum topics. A channel or topic that templates use cannot be
 * deleted; the server's answer names those templates.
 */
export function ChannelsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [view, setView] = useState<View>({ kind: 'list' });
  const [deleting, setDeleting] = useState<Deleting | null>(null);
  const deleteChannel = useDeleteChannel();
  const deleteTopic = useDeleteTopic();
  const mutation = deleting?.kind === 'topic' ? deleteTopic : deleteChannel;

  const closeConfirm = (next: boolean) => {
    if (next) return;
    setDeleting(null);
    deleteChannel.reset();
    deleteTopic.reset();
  };

  const confirmDelete = () => {
    if (!deleting) return;
    const done = { onSuccess: () => setDeleting(null) };
    if (deleting.kind === 'channel') deleteChannel.mutate(deleting.channel.id, done);
    else deleteTopic.mutate({ channelId: deleting.channel.id, topicId: deleting.topic.id }, done);
  };

  const name = deleting?.kind === 'topic' ? deleting.topic.topic_name : deleting?.channel.channel_name;

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Manage Channels" className="sm:max-w-2xl">
      {view.kind === 'list' && (
        <ChannelList
          onAdd={() => setView({ kind: 'form' })}
          onEdit={(channel) => setView({ kind: 'form', channel })}
          onTopics={(channel) => setView({ kind: 'topics', channel })}
          onDelete={(channel) => setDeleting({ kind: 'channel', channel })}
        />
      )}
      {view.kind === 'form' && (
        <ChannelForm channel={view.channel} onDone={() => setView({ kind: 'list' })} />
      )}
      {view.kind === 'topics' && (
        <ChannelTopics
          channel={view.channel}
          onBack={() => setView({ kind: 'list' })}
          onDelete={(topic) => setDeleting({ kind: 'topic', channel: view.channel, topic })}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={closeConfirm}
        title={deleting?.kind === 'topic' ? 'Delete Topic' : 'Delete Channel'}
        description={
          deleting?.kind === 'channel'
            ? `Are you sure you want to delete ${name}? Its topics are deleted with it. This action cannot be undone.`
            : `Are you sure you want to delete ${name}? This action cannot be undone.`
        }
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={mutation.isPending}
        onConfirm={confirmDelete}
        error={
          mutation.isError
            ? errorMessage(mutation.error, `Failed to delete ${deleting?.kind ?? 'channel'}`)
            : null
        }
      />
    </Dialog>
  );
}
