import { zodResolver } from '@hookform/resolvers/zod';
import { topicInputSchema, type Topic, type TopicInput, type TopicValues } from '@lumi/contract';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { useCreateTopic } from '../api/create-topic';
import { useUpdateTopic } from '../api/update-topic';
import { RequiredLabel } from './required-label';

interface TopicFormProps {
  channelId: number;
  /** The topic to edit, or none to add one. */
  topic?: Topic;
  onDone: () => void;
}

/** Add or edit a forum topic of a channel: its name and Telegram's message_thread_id. */
export function TopicForm({ channelId, topic, onDone }: TopicFormProps) {
  const createTopic = useCreateTopic();
  const updateTopic = useUpdateTopic();
  const mutation = topic ? updateTopic : createTopic;
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TopicInput, unknown, TopicValues>({
    resolver: zodResolver(topicInputSchema),
    defaultValues: {
      topic_name: topic?.topic_name ?? '',
      message_thread_id: topic?.message_thread_id,
      enabled: topic?.enabled ?? true,
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      if (topic) await updateTopic.mutateAsync({ channelId, topicId: topic.id, input: values });
      else await createTopic.mutateAsync({ channelId, input: values });
      onDone();
    } catch (error) {
      setFailure(errorMessage(error, topic ? 'Failed to update topic' : 'Failed to create topic'));
    }
  });

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-label={topic ? `Edit topic ${topic.topic_name}` : 'Add topic'}
      className="space-y-3 rounded-md border bg-background/50 p-3"
    >
      {failure && <Alert variant="error">{failure}</Alert>}
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label={<RequiredLabel>Topic Name</RequiredLabel>} error={errors.topic_name?.message}>
          <Input autoComplete="off" aria-required {...register('topic_name')} />
        </Field>
        <Field
          label={<RequiredLabel>Message Thread ID</RequiredLabel>}
          error={errors.message_thread_id?.message}
          hint="The forum topic's id in Telegram"
        >
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            aria-required
            {...register('message_thread_id', { valueAsNumber: true })}
          />
        </Field>
      </div>
      <Controller
        control={control}
        name="enabled"
        render={({ field }) => (
          <Checkbox label="Enabled" checked={field.value ?? true} onCheckedChange={field.onChange} />
        )}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" size="sm" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={mutation.isPending}>
          {mutation.isPending ? 'Saving...' : 'Save Topic'}
        </Button>
      </div>
    </form>
  );
}
