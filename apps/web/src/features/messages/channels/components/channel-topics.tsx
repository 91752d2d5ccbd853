import type { Channel, Topic } from '@lumi/contract';
import { ArrowLeft, Plus } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useTopics } from '../api/list-topics';
import { useUpdateTopic } from '../api/update-topic';
import { EnableEditDeleteActions } from './enable-edit-delete-actions';
import { EnabledBadge } from '../../components/enabled-badge';
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
  const updateTopic = useUpdateTopic();
  // 'new' while adding, a topic's id while editing it.
  const [editing, setEditing] = useState<'new' | number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const toggle = (topic: Topic) => {
    setFailure(null);
    updateTopic.mutate(
      { channelId: channel.id, topicId: topic.id, input: { enabled: !topic.enabled } },
      { onError: (error) => setFailure(errorMessage(error, 'Failed to update topic')) },
    );
  };

  return (
    <div className="space-y-3">
      <Button variant="ghost" size="sm" onClick={onBack} className="-ml-2">
        <ArrowLeft aria-hidden />
        All channels
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <ViewHeading>Topics of {channel.channel_name}</ViewHeading>
        {editing === null && (
          <Button size="sm" onClick={() => setEditing('new')}>
            <Plus aria-hidden />
            Add Topic
          </Button>
        )}
      </div>
      {failure && (
        <Alert variant="error" onDismiss={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
      {editing === 'new' && <TopicForm channelId={channel.id} onDone={() => setEditing(null)} />}
      {topics.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : topics.isError ? (
        <Alert variant="error">Failed to load topics</Alert>
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
                  <p className="flex flex-wrap items-center gap-2 font-medium">
                    {topic.topic_name}
                    <EnabledBadge enabled={topic.enabled} />
                  </p>
                  <p className="text-xs text-muted-foreground">
                    Message thread ID: {topic.message_thread_id}
                  </p>
                </div>
                <div className="flex gap-1">
                  <EnableEditDeleteActions
                    label={topic.topic_name}
                    enabled={topic.enabled}
                    toggling={updateTopic.isPending}
                    onEdit={() => setEditing(topic.id)}
                    onToggle={() => toggle(topic)}
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
