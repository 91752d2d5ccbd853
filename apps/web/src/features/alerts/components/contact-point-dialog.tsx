import { DEFAULT_ALERT_TEMPLATE_NAME, type ContactPoint, type ContactPointCreated } from '@lumi/contract';
import { useWatch } from 'react-hook-form';
import { Dialog } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/dialog-form';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useCreateContactPoint, useUpdateContactPoint } from '../api/contact-points';
import { useAlertTemplateOptions, useChannelOptions, useTopicOptions } from '../api/messaging-lists';
import {
  contactPointFormDefaults,
  contactPointFormSchema,
  toContactPointInput,
  toContactPointUpdate,
} from '../lib/contact-point-form';
import { RequiredLabel } from '@/components/ui/required-label';

interface ContactPointDialogProps {
  /** The contact point to edit, or none to create one. */
  point?: ContactPoint;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After creating: a webhook's answer carries its secret, shown this once. */
  onCreated?: (created: ContactPointCreated) => void;
}

/** Create or edit a contact point: a Telegram channel (topic, template) or a webhook URL. */
export function ContactPointDialog({ point, open, onOpenChange, onCreated }: ContactPointDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={point ? `Edit Contact Point: ${point.name}` : 'New Contact Point'}
    >
      {open && <ContactPointForm point={point} onDone={() => onOpenChange(false)} onCreated={onCreated} />}
    </Dialog>
  );
}

function ContactPointForm({
  point,
  onDone,
  onCreated,
}: {
  point?: ContactPoint;
  onDone: () => void;
  onCreated?: (created: ContactPointCreated) => void;
}) {
  const create = useCreateContactPoint();
  const update = useUpdateContactPoint();
  const dialog = useFormDialog(contactPointFormSchema, {
    defaultValues: contactPointFormDefaults(point),
    save: async (values) => {
      if (point) return update.mutateAsync({ id: point.id, update: toContactPointUpdate(values) });
      const created = await create.mutateAsync(toContactPointInput(values));
      onCreated?.(created);
      return created;
    },
    onSaved: onDone,
    serverFields: ['name', 'channel_id', 'topic_id', 'template_id', 'url'],
    failureMessage: point ? 'Failed to save the contact point' : 'Failed to create the contact point',
    successMessage: ({ name }) => `Contact point '${name}' ${point ? 'saved' : 'created'}`,
  });
  const { register, control, setValue } = dialog.form;
  const { errors } = dialog.form.formState;
  const type = useWatch({ control, name: 'type' });
  const channelId = useWatch({ control, name: 'channel_id' });

  return (
    <DialogForm
      dialog={dialog}
      onCancel={onDone}
      submitLabel={point ? 'Save Contact Point' : 'Create Contact Point'}
    >
      <Field label={<RequiredLabel>Name</RequiredLabel>} error={errors.name?.message}>
        <Input autoComplete="off" aria-required {...register('name')} />
      </Field>
      <Field label="Type" hint={point ? 'A contact point keeps its type' : undefined}>
        <Select disabled={point !== undefined} {...register('type')}>
          <option value="telegram">Telegram</option>
          <option value="webhook">Webhook</option>
        </Select>
      </Field>
      {type === 'telegram' ? (
        <TelegramFields
          channelId={channelId ? Number(channelId) : null}
          register={register}
          errors={errors}
          onChannelChange={() => setValue('topic_id', '')}
        />
      ) : (
        <Field
          label={<RequiredLabel>URL</RequiredLabel>}
          error={errors.url?.message}
          hint="Lumi POSTs a JSON body signed with HMAC-SHA256 (the secret is shown once, after creating)"
        >
          <Input
            type="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://example.com/hooks/lumi"
            aria-required
            {...register('url')}
          />
        </Field>
      )}
    </DialogForm>
  );
}

type Register = ReturnType<typeof useFormDialog<typeof contactPointFormSchema>>['form']['register'];
type Errors = ReturnType<typeof useFormDialog<typeof contactPointFormSchema>>['form']['formState']['errors'];

function TelegramFields({
  channelId,
  register,
  errors,
  onChannelChange,
}: {
  channelId: number | null;
  register: Register;
  errors: Errors;
  onChannelChange: () => void;
}) {
  const channels = useChannelOptions();
  const topics = useTopicOptions(channelId);
  const templates = useAlertTemplateOptions();
  const channelField = register('channel_id');
  return (
    <>
      <Field
        label={<RequiredLabel>Channel</RequiredLabel>}
        error={errors.channel_id?.message}
        hint={channels.isError ? 'The channels could not be loaded' : undefined}
      >
        <Select
          aria-required
          {...channelField}
          onChange={(event) => {
            onChannelChange();
            return channelField.onChange(event);
          }}
        >
          <option value="">Choose a channel</option>
          {(channels.data ?? []).map((channel) => (
            <option key={channel.id} value={String(channel.id)}>
              {channel.channel_name}
            </option>
          ))}
        </Select>
      </Field>
      <Field
        label="Topic"
        error={errors.topic_id?.message}
        hint="For a forum group: the topic the alerts go to"
      >
        <Select disabled={channelId === null} {...register('topic_id')}>
          <option value="">No topic</option>
          {(topics.data ?? []).map((topic) => (
            <option key={topic.id} value={String(topic.id)}>
              {topic.topic_name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Template" error={errors.template_id?.message}>
        <Select {...register('template_id')}>
          <option value="">{DEFAULT_ALERT_TEMPLATE_NAME} (default)</option>
          {(templates.data ?? [])
            .filter((template) => template.template_name !== DEFAULT_ALERT_TEMPLATE_NAME)
            .map((template) => (
              <option key={template.id} value={String(template.id)}>
                {template.template_name}
              </option>
            ))}
        </Select>
      </Field>
    </>
  );
}
