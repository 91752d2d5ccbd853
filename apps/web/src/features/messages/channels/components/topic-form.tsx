import { topicInputSchema, type Topic } from '@lumi/contract';
import { DialogForm } from '@/components/ui/dialog-form';
import { Field } from '@/components/ui/field';
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Input } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useCreateTopic } from '../api/create-topic';
import { useUpdateTopic } from '../api/update-topic';
import { RequiredLabel } from '@/components/ui/required-label';

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
  const dialog = useFormDialog(topicInputSchema, {
    defaultValues: {
      topic_name: topic?.topic_name ?? '',
      message_thread_id: topic?.message_thread_id,
      enabled: topic?.enabled ?? true,
    },
    save: (input) =>
      topic
        ? updateTopic.mutateAsync({ channelId, topicId: topic.id, input })
        : createTopic.mutateAsync({ channelId, input }),
    onSaved: onDone,
    failureMessage: topic ? 'Failed to update topic' : 'Failed to create topic',
    successMessage: ({ topic_name }) => `Topic '${topic_name}' ${topic ? 'saved' : 'created'}`,
  });
  const { register } = dialog.form;
  const { errors } = dialog.form.formState;

  return (
    <DialogForm
      dialog={dialog}
      onCancel={onDone}
      submitLabel="Save Topic"
      compact
      aria-label={topic ? `Edit topic ${topic.topic_name}` : 'Add topic'}
      className="space-y-3 rounded-md border bg-background/50 p-3"
    >
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
      <FormCheckbox control={dialog.form.control} name="enabled" label="Enabled" />
    </DialogForm>
  );
}
