import type { TemplateSnapshot } from '@lumi/contract';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { useChannels } from '../../channels/api/list-channels';
import { useTopics } from '../../channels/api/list-topics';
import { contentLines, settingChanges, type SettingChange } from '../lib/version-diff';

function ChannelName({ id }: { id: number }) {
  const channels = useChannels();
  return <>{channels.data?.find((channel) => channel.id === id)?.channel_name ?? `Channel ${id}`}</>;
}

function TopicName({ channelId, id }: { channelId: number; id: number | null }) {
  const topics = useTopics(id === null ? null : channelId);
  if (id === null) return <em>No Topic</em>;
  return <>{topics.data?.find((topic) => topic.id === id)?.topic_name ?? `Topic ${id}`}</>;
}

function SettingValue({ snapshot, field }: { snapshot: TemplateSnapshot; field: SettingChange['field'] }) {
  const value = snapshot[field];
  if (field === 'channel_id') return <ChannelName id={snapshot.channel_id} />;
  if (field === 'topic_id') return <TopicName channelId={snapshot.channel_id} id={snapshot.topic_id} />;
  if (typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>;
  return value === '' ? <em>empty</em> : <>{String(value)}</>;
}

interface VersionDiffProps {
  before: TemplateSnapshot;
  after: TemplateSnapshot;
  beforeLabel: string;
  afterLabel: string;
}

/** What changed between a version and the current one: settings field by field, content line by line. */
export function VersionDiff({ before, after, beforeLabel, afterLabel }: VersionDiffProps) {
  const settings = settingChanges(before, after);
  const lines = contentLines(before.template_content, after.template_content);
  const contentChanged = lines.some((line) => line.kind !== 'same');
  return (
    <div className="space-y-4 text-sm">
      <section aria-label="Settings changes">
        <h4 className="mb-1.5 font-semibold">Settings</h4>
        {settings.length === 0 ? (
          <p className="text-muted-foreground">The settings are the same.</p>
        ) : (
          <div className="overflow-x-auto rounded-md border">
            <table className="w-full text-left text-xs">
              <thead className="bg-muted/50 text-muted-foreground">
                <tr>
                  <th scope="col" className="px-2 py-1.5 font-semibold">
                    Setting
                  </th>
                  <th scope="col" className="px-2 py-1.5 font-semibold">
                    {beforeLabel}
                  </th>
                  <th scope="col" className="px-2 py-1.5 font-semibold">
                    {afterLabel}
                  </th>
                </tr>
              </thead>
              <tbody>
                {settings.map(({ field, label }) => (
                  <tr key={field} className="border-t">
                    <th scope="row" className="px-2 py-1.5 font-medium">
                      {label}
                    </th>
                    <td className="px-2 py-1.5 break-words">
                      <SettingValue snapshot={before} field={field} />
                    </td>
                    <td className="px-2 py-1.5 break-words">
                      <SettingValue snapshot={after} field={field} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-label="Content changes">
        <h4 className="mb-1.5 font-semibold">Content</h4>
        {!contentChanged ? (
          <p className="text-muted-foreground">The content is the same.</p>
        ) : (
          <pre
            tabIndex={0}
            className="max-h-80 overflow-auto rounded-md border bg-muted/30 py-1 font-mono text-xs"
          >
            {lines.map((line, index) => (
              <DiffLine key={index} kind={line.kind}>
                {line.text}
              </DiffLine>
            ))}
          </pre>
        )}
      </section>
    </div>
  );
}

// The sign and the hidden words carry the meaning; the tint only helps the eye.
const LINE = {
  added: { sign: '+', label: 'added: ', className: 'bg-success/15', Tag: 'ins' },
  removed: { sign: '-', label: 'removed: ', className: 'bg-destructive/15', Tag: 'del' },
  same: { sign: ' ', label: '', className: '', Tag: 'span' },
} as const;

function DiffLine({ kind, children }: { kind: keyof typeof LINE; children: ReactNode }) {
  const { sign, label, className, Tag } = LINE[kind];
  return (
    <Tag className={cn('block px-2 whitespace-pre-wrap no-underline', className)}>
      <span aria-hidden className="mr-2 inline-block w-2 select-none text-muted-foreground">
        {sign}
      </span>
      {label && <span className="sr-only">{label}</span>}
      {children}
    </Tag>
  );
}
