import type { Channel } from '@lumi/contract';
import { ListTree, TriangleAlert } from 'lucide-react';
import { AddButton } from '@/components/ui/add-button';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { EnabledName } from '../../components/enabled-badge';
import { useChannels } from '../api/list-channels';
import { useUpdateChannel } from '../api/update-channel';
import { useEnabledToggle } from '../hooks/use-enabled-toggle';
import { EnableEditDeleteActions } from './enable-edit-delete-actions';
import { ListUnavailable } from './list-unavailable';
import { ViewHeading } from './view-heading';

interface ChannelListProps {
  onAdd: () => void;
  onEdit: (channel: Channel) => void;
  onTopics: (channel: Channel) => void;
  onDelete: (channel: Channel) => void;
}

/** Every channel with its chat, and the controls to change, switch off, delete it or manage its topics. */
export function ChannelList({ onAdd, onEdit, onTopics, onDelete }: ChannelListProps) {
  const channels = useChannels();
  const { toggle, toggling, failureAlert } = useEnabledToggle(useUpdateChannel(), 'Failed to update channel');

  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <ViewHeading>Channels</ViewHeading>
        <AddButton size="sm" onClick={onAdd}>
          Add Channel
        </AddButton>
      </div>
      {failureAlert}
      {!channels.isSuccess ? (
        <ListUnavailable query={channels} items="channels" placeholderClassName="h-24" />
      ) : channels.data.length === 0 ? (
        <p className="py-6 text-center text-sm text-muted-foreground">
          No channels yet. Add the Telegram chat the bot posts to.
        </p>
      ) : (
        <ul aria-label="Channels" className="space-y-2">
          {channels.data.map((channel) => (
            <li key={channel.id} className="rounded-md border p-3">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <EnabledName name={channel.channel_name} enabled={channel.enabled} />
                  <p className="text-xs text-muted-foreground">
                    Chat ID: <code className="break-all">{channel.chat_id}</code>
                  </p>
                  {channel.description && <p className="mt-1 text-sm">{channel.description}</p>}
                  {channel.send_problem && (
                    <p className="mt-1.5 flex items-start gap-1.5 text-sm font-medium text-warning">
                      <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
                      <span>
                        Cannot send here: {channel.send_problem}
                        {channel.send_problem_at && (
                          <span className="font-normal">
                            {' '}
                            (since {formatDateTime(channel.send_problem_at)})
                          </span>
                        )}
                      </span>
                    </p>
                  )}
                </div>
                <div className="flex flex-wrap items-center gap-0.5">
                  <Button variant="secondary" size="sm" className="px-2.5" onClick={() => onTopics(channel)}>
                    <ListTree aria-hidden />
                    Topics
                    <span className="sr-only"> of {channel.channel_name}</span>
                  </Button>
                  <EnableEditDeleteActions
                    label={channel.channel_name}
                    enabled={channel.enabled}
                    toggling={toggling}
                    onEdit={() => onEdit(channel)}
                    onToggle={() => toggle({ id: channel.id, input: { enabled: !channel.enabled } })}
                    onDelete={() => onDelete(channel)}
                  />
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
