import { zodResolver } from '@hookform/resolvers/zod';
import { channelInputSchema, type Channel, type ChannelInput, type ChannelValues } from '@lumi/contract';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { useCreateChannel } from '../api/create-channel';
import { useUpdateChannel } from '../api/update-channel';
import { RequiredLabel } from './required-label';
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
  const mutation = channel ? updateChannel : createChannel;
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ChannelInput, unknown, ChannelValues>({
    resolver: zodResolver(channelInputSchema),
    defaultValues: {
      channel_name: channel?.channel_name ?? '',
      chat_id: channel?.chat_id ?? '',
      description: channel?.description ?? '',
      enabled: channel?.enabled ?? true,
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      if (channel) await updateChannel.mutateAsync({ id: channel.id, input: values });
      else await createChannel.mutateAsync(values);
      onDone();
    } catch (error) {
      setFailure(errorMessage(error, channel ? 'Failed to update channel' : 'Failed to create channel'));
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <ViewHeading>{channel ? `Edit Channel: ${channel.channel_name}` : 'Add Channel'}</ViewHeading>
      {failure && <Alert variant="error">{failure}</Alert>}
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
      <Controller
        control={control}
        name="enabled"
        render={({ field }) => (
          <Checkbox label="Enabled" checked={field.value ?? true} onCheckedChange={field.onChange} />
        )}
      />
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={mutation.isPending}>
          {mutation.isPending ? 'Saving...' : 'Save Channel'}
        </Button>
      </div>
    </form>
  );
}
