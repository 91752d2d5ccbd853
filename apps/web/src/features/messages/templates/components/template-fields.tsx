import {
  describeTemplateProblem,
  MESSAGE_TYPES,
  PARSE_MODES,
  templateSpot,
  type RenderProblem,
  type TemplateValues,
} from '@lumi/contract';
import { useMemo } from 'react';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { CodeEditor, type CodeEditorMarker } from '@/components/code-editor/code-editor';
import { Field } from '@/components/ui/field';
import { Input, Select, Textarea } from '@/components/ui/input';
import { useChannels } from '../../channels/api/list-channels';
import { useTopics } from '../../channels/api/list-topics';
import type { TemplateFormValues } from '../lib/template-form';
import { RequiredLabel } from '@/components/ui/required-label';
import { TemplateOptions } from './template-options';

const TYPE_LABELS = { dashboard: 'Dashboard', alert: 'Alert', digest: 'Digest', custom: 'Custom' } as const;

/**
 * The editor's fields (spec section 2, Messages), in the order the spec lists them. The editor's fieldset
 * disables them for a reader; the code editor, outside the reach of a fieldset, is told with `readOnly`.
 */
export function TemplateFields({
  readOnly,
  problems,
}: {
  readOnly: boolean;
  /** The save check's findings: errors stop a save, warnings depend on the data alone. */
  problems: { blocking: readonly RenderProblem[]; warnings: readonly RenderProblem[] };
}) {
  const {
    control,
    register,
    setValue,
    formState: { errors },
  } = useFormContext<TemplateFormValues, unknown, TemplateValues>();
  const channelId = useWatch({ control, name: 'channel_id' });
  const channels = useChannels();
  const topics = useTopics(channelId ?? null);
  const topicOptions = topics.data ?? [];
  const markers = useMemo(() => markersOf(problems), [problems]);
  // A reader fills nothing in, so the required marks would only be noise.
  const label = (text: string) => (readOnly ? text : <RequiredLabel>{text}</RequiredLabel>);

  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={label('Template Name')} error={errors.template_name?.message}>
          <Input autoComplete="off" aria-required {...register('template_name')} />
        </Field>
        <Field label={label('Message Type')} error={errors.message_type?.message}>
          <Select aria-required {...register('message_type')}>
            {MESSAGE_TYPES.map((type) => (
              <option key={type} value={type}>
                {TYPE_LABELS[type]}
              </option>
            ))}
          </Select>
        </Field>
        <Controller
          control={control}
          name="channel_id"
          render={({ field, fieldState }) => (
            <Field label={label('Channel')} error={fieldState.error?.message}>
              <Select
                aria-required
                name={field.name}
                ref={field.ref}
                value={field.value ?? ''}
                onBlur={field.onBlur}
                onChange={(event) => {
                  field.onChange(event.target.value ? Number(event.target.value) : undefined);
                  // A topic belongs to its channel: another channel starts without one.
                  setValue('topic_id', null, { shouldDirty: true });
                }}
              >
                <option value="">Select Channel</option>
                {(channels.data ?? []).map((channel) => (
                  <option key={channel.id} value={channel.id}>
                    {channel.enabled ? channel.channel_name : `${channel.channel_name} (disabled)`}
                  </option>
                ))}
              </Select>
            </Field>
          )}
        />
        <Controller
          control={control}
          name="topic_id"
          render={({ field, fieldState }) => (
            <Field label="Topic (Optional)" error={fieldState.error?.message}>
              <Select
                name={field.name}
                ref={field.ref}
                value={field.value ?? ''}
                onBlur={field.onBlur}
                onChange={(event) => field.onChange(event.target.value ? Number(event.target.value) : null)}
                disabled={topicOptions.length === 0}
              >
                <option value="">No Topic</option>
                {topicOptions.map((topic) => (
                  <option key={topic.id} value={topic.id}>
                    {topic.enabled ? topic.topic_name : `${topic.topic_name} (disabled)`}
                  </option>
                ))}
              </Select>
            </Field>
          )}
        />
      </div>
      <Field label="Description" error={errors.description?.message}>
        <Textarea rows={2} {...register('description')} />
      </Field>
      <Controller
        control={control}
        name="template_content"
        render={({ field, fieldState }) => {
          const described = [
            fieldState.error && 'template-content-error',
            problems.blocking.length > 0 && 'template-content-problems',
          ].filter(Boolean);
          return (
            <div className="space-y-1.5">
              <p id="template-content-label" className="text-sm font-medium">
                {label('Template Content')}
              </p>
              <CodeEditor
                value={field.value}
                onChange={field.onChange}
                language="handlebars"
                height="400px"
                aria-label="Template Content"
                readOnly={readOnly}
                markers={markers}
                aria-invalid={fieldState.error || problems.blocking.length > 0 ? true : undefined}
                aria-describedby={described.length > 0 ? described.join(' ') : undefined}
              />
              {fieldState.error && (
                <p id="template-content-error" className="text-xs font-medium text-destructive">
                  {fieldState.error.message}
                </p>
              )}
              {problems.blocking.length > 0 && (
                <div id="template-content-problems" className="text-xs text-destructive">
                  <p className="font-medium">Telegram would refuse this template with its example data:</p>
                  <ul className="list-disc pl-4">
                    {problems.blocking.map((problem) => (
                      <li key={describeTemplateProblem(problem)}>{describeTemplateProblem(problem)}</li>
                    ))}
                  </ul>
                </div>
              )}
            </div>
          );
        }}
      />
      <Field label="Parse Mode" error={errors.parse_mode?.message}>
        <Select {...register('parse_mode')}>
          {PARSE_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {mode}
            </option>
          ))}
        </Select>
      </Field>
      <TemplateOptions />
    </div>
  );
}

/** The problems that have a spot in the template, as marks in the code editor. */
function markersOf(problems: {
  blocking: readonly RenderProblem[];
  warnings: readonly RenderProblem[];
}): CodeEditorMarker[] {
  const marks: CodeEditorMarker[] = [];
  for (const [severity, list] of [
    ['error', problems.blocking],
    ['warning', problems.warnings],
  ] as const) {
    for (const problem of list) {
      const spot = templateSpot(problem);
      if (spot) marks.push({ ...spot, message: problem.message, severity });
    }
  }
  return marks;
}
