import type { Channel, Topic } from '@lumi/contract';
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { AddButton } from '@/components/ui/add-button';
import { Button } from '@/components/ui/button';
import { EnabledName } from '../../components/enabled-badge';
import { useTopics } from '../api/list-topics';
import { useUpdateTopic } from '../api/update-topic';
import { useEnabledToggle } from '../hooks/use-enabled-toggle';
import { EnableEditDeleteActions } from './enable-edit-delete-actions';
import { ListUnavailable } from './list-unavailable';
import { TopicForm } from './topic-form';
import { ViewHeading } from './view-heading';

interface ChannelTopicsProps {
  channel: Channel;
  onBack: () => void;
  onDelete: (topic: Topic) => void;
}

/** A channel's forum topics: add, edit, switch off and delete them. */
export function ChannelTopics({ channel, onBack, onDelete }: ChannelTopicsProps) {
  const topics = useTopics(channel.id);
  const { toggle, toggling, failureAlert } = useEnabledToggle(useUpdateTopic(), 'Failed to update topic');
  // 'new' while adding, a topic's id while editing it.
  const [editing, setEditing] = useState<'new' | number | null>(null);

  return (
    <div className="space-y-3">
      <Button variant="ghost" size="sm" onClick={onBack} className="-ml-2">
        <ArrowLeft aria-hidden />
        All channels
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <ViewHeading>Topics of {channel.channel_name}</ViewHeading>
        {editing === null && (
          <AddButton size="sm" onClick={() => setEditing('new')}>
            Add Topic
          </AddButton>
        )}
      </div>
      {failureAlert}
      {editing === 'new' && <TopicForm channelId={channel.id} onDone={() => setEditing(null)} />}
      {!topics.isSuccess ? (
        <ListUnavailable query={topics} items="topics" placeholderClassName="h-16" />
      ) : topics.data.length === 0 ? (
        <p className="py-4 text-center text-sm text-muted-foreground">
          No topics. Messages go to the chat itself unless a template names a topic.
        </p>
      ) : (
        <ul aria-label="Topics" className="space-y-2">
          {topics.data.map((topic) =>
            editing === topic.id ? (
              <li key={topic.id}>
                <TopicForm channelId={channel.id} topic={topic} onDone={() => setEditing(null)} />
              </li>
            ) : (
              <li
                key={topic.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3"
              >
                <div className="min-w-0">
                  <EnabledName name={topic.topic_name} enabled={topic.enabled} />
                  <p className="text-xs text-muted-foreground">
                    Message thread ID: {topic.message_thread_id}
                  </p>
                </div>
                <div className="flex gap-1">
                  <EnableEditDeleteActions
                    label={topic.topic_name}
                    enabled={topic.enabled}
                    toggling={toggling}
                    onEdit={() => setEditing(topic.id)}
                    onToggle={() =>
                      toggle({ channelId: channel.id, topicId: topic.id, input: { enabled: !topic.enabled } })
                    }
                    onDelete={() => onDelete(topic)}
                  />
                </div>
              </li>
            ),
          )}
        </ul>
      )}
    </div>
  );
}
