import { StateBadge } from '@/components/ui/state-badge';

const LABELS = ['Enabled', 'Disabled'] as const;

/** Enabled or Disabled; a switched-off channel, topic or template is a warning. */
export function EnabledBadge({ enabled }: { enabled: boolean }) {
  return <StateBadge on={enabled} labels={LABELS} off="warning" />;
}
