import { channelInputSchema, type Channel } from '@lumi/contract';
import { DialogForm } from '@/components/ui/dialog-form';
import { Field } from '@/components/ui/field';
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Input, Textarea } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useCreateChannel } from '../api/create-channel';
import { useUpdateChannel } from '../api/update-channel';
import { RequiredLabel } from '@/components/ui/required-label';
import { ViewHeading } from './view-heading';

interface ChannelFormProps {
  /** The channel to edit, or none to add one. */
  channel?: Channel;
  onDone: () => void;
}

/** Add or edit a channel: its name, the Telegram chat it posts to, a description and whether it is enabled. */
export function ChannelForm({ channel, onDone }: ChannelFormProps) {
  const createChannel = useCreateChannel();
  const updateChannel = useUpdateChannel();
  const dialog = useFormDialog(channelInputSchema, {
    defaultValues: {
      channel_name: channel?.channel_name ?? '',
      chat_id: channel?.chat_id ?? '',
      description: channel?.description ?? '',
      enabled: channel?.enabled ?? true,
    },
    save: (input) =>
      channel ? updateChannel.mutateAsync({ id: channel.id, input }) : createChannel.mutateAsync(input),
    onSaved: onDone,
    failureMessage: channel ? 'Failed to update channel' : 'Failed to create channel',
    successMessage: ({ channel_name }) => `Channel '${channel_name}' ${channel ? 'saved' : 'created'}`,
  });
  const { register } = dialog.form;
  const { errors } = dialog.form.formState;
  const title = channel ? `Edit Channel: ${channel.channel_name}` : 'Add Channel';

  return (
    <DialogForm
      dialog={dialog}
      onCancel={onDone}
      submitLabel="Save Channel"
      heading={<ViewHeading>{title}</ViewHeading>}
    >
      <Field label={<RequiredLabel>Channel Name</RequiredLabel>} error={errors.channel_name?.message}>
        <Input autoComplete="off" aria-required {...register('channel_name')} />
      </Field>
      <Field
        label={<RequiredLabel>Chat ID</RequiredLabel>}
        error={errors.chat_id?.message}
        hint="A numeric chat id such as -1001234567890, or a public @username"
      >
        <Input autoComplete="off" spellCheck={false} aria-required {...register('chat_id')} />
      </Field>
      <Field label="Description" error={errors.description?.message}>
        <Textarea rows={2} {...register('description')} />
      </Field>
      <FormCheckbox control={dialog.form.control} name="enabled" label="Enabled" />
    </DialogForm>
  );
}
