import { DELIVERY_STATUSES } from '@lumi/contract';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/input';
import { useChannels } from '../../channels/api/list-channels';
import { useTemplates } from '../../templates/api/list-templates';
import type { DeliveryFilters } from '../hooks/use-delivery-filters';
import { DELIVERY_RANGES, isDeliveryRange } from '../lib/delivery-ranges';
import { STATUS_LABELS } from '../lib/delivery-status';

const ALL_TEMPLATES = { channelId: null, messageType: null };

interface DeliveryFiltersBarProps {
  filters: DeliveryFilters;
  onChange: <K extends keyof DeliveryFilters>(name: K, value: DeliveryFilters[K]) => void;
}

function idOrNull(value: string): number | null {
  return value ? Number(value) : null;
}

/** Status, channel, template and time range; each choice applies at once and lands in the URL. */
export function DeliveryFiltersBar({ filters, onChange }: DeliveryFiltersBarProps) {
  const channels = useChannels();
  const templates = useTemplates(ALL_TEMPLATES);

  return (
    <div
      role="group"
      aria-label="Filter deliveries"
      className="grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-4"
    >
      <Field label="Status">
        <Select
          value={filters.status ?? ''}
          onChange={(event) =>
            onChange('status', DELIVERY_STATUSES.find((status) => status === event.target.value) ?? null)
          }
        >
          <option value="">All statuses</option>
          {DELIVERY_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Channel">
        <Select
          value={filters.channelId ?? ''}
          onChange={(event) => onChange('channelId', idOrNull(event.target.value))}
        >
          <option value="">All channels</option>
          {channels.data?.map((channel) => (
            <option key={channel.id} value={channel.id}>
              {channel.channel_name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Template">
        <Select
          value={filters.templateId ?? ''}
          onChange={(event) => onChange('templateId', idOrNull(event.target.value))}
        >
          <option value="">All templates</option>
          {templates.data?.map((template) => (
            <option key={template.id} value={template.id}>
              {template.template_name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Time range">
        <Select
          value={filters.range ?? ''}
          onChange={(event) =>
            onChange('range', isDeliveryRange(event.target.value) ? event.target.value : null)
          }
        >
          <option value="">Any time</option>
          {DELIVERY_RANGES.map((range) => (
            <option key={range.value} value={range.value}>
              {range.label}
            </option>
          ))}
        </Select>
      </Field>
    </div>
  );
}
