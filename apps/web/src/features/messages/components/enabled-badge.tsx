import { StateBadge } from '@/components/ui/state-badge';

const LABELS = ['Enabled', 'Disabled'] as const;

/** Enabled or Disabled; a switched-off channel, topic or template is a warning. */
export function EnabledBadge({ enabled }: { enabled: boolean }) {
  return <StateBadge on={enabled} labels={LABELS} off="warning" />;
}

/** A channel's or topic's name, with whether it is enabled beside it. */
export function EnabledName({ name, enabled }: { name: string; enabled: boolean }) {
  return (
    <p className="flex flex-wrap items-center gap-2 font-medium">
      {name}
      <EnabledBadge enabled={enabled} />
    </p>
  );
}
