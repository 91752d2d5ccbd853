import { MESSAGE_TYPES, type MessageType, type Template } from '@lumi/contract';
import { Search } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { AddButton } from '@/components/ui/add-button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, Select } from '@/components/ui/input';
import { RetryAlert } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { useChannels } from '../../channels/api/list-channels';
import { EnabledBadge } from '../../components/enabled-badge';
import { useTemplates } from '../api/list-templates';
import { useTemplateFilters } from '../hooks/use-template-filters';
import { filterTemplatesByName } from '../lib/filter-templates';

interface TemplateListProps {
  selectedId: number | null;
  onSelect: (template: Template) => void;
  /** Shown only to those who may create templates. */
  onCreate?: () => void;
}

/** The left list of the Messages screen: search, channel and type filters, and the templates. */
export function TemplateList({ selectedId, onSelect, onCreate }: TemplateListProps) {
  const filters = useTemplateFilters();
  const channels = useChannels();
  const templates = useTemplates({ channelId: filters.channelId, messageType: filters.messageType });
  const shown = filterTemplatesByName(templates.data ?? [], filters.search);

  return (
    <Card aria-labelledby="template-list-title">
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle id="template-list-title">Templates</CardTitle>
        {onCreate && (
          <AddButton size="sm" onClick={onCreate} aria-label="New template">
            New
          </AddButton>
        )}
      </CardHeader>
      <CardContent className="space-y-3">
        <div role="search" className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            type="search"
            aria-label="Search templates"
            placeholder="Search templates..."
            value={filters.search}
            onChange={(event) => filters.setSearch(event.target.value)}
            className="pl-9"
          />
        </div>
        <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-1">
          <Select
            aria-label="Filter by channel"
            value={filters.channelId ?? ''}
            onChange={(event) => filters.setChannelId(event.target.value ? Number(event.target.value) : null)}
          >
            <option value="">All Channels</option>
            {(channels.data ?? []).map((channel) => (
              <option key={channel.id} value={channel.id}>
                {channel.channel_name}
              </option>
            ))}
          </Select>
          <Select
            aria-label="Filter by type"
            value={filters.messageType ?? ''}
            onChange={(event) => filters.setMessageType((event.target.value || null) as MessageType | null)}
          >
            <option value="">All Types</option>
            {MESSAGE_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </Select>
        </div>
        {templates.isError ? (
          <RetryAlert onRetry={() => void templates.refetch()}>Failed to load templates</RetryAlert>
        ) : templates.isPending ? (
          <div aria-busy className="space-y-2">
            {Array.from({ length: 4 }, (_, index) => (
              <Skeleton key={index} className="h-14 w-full" />
            ))}
          </div>
        ) : shown.length === 0 ? (
          <p className="py-8 text-center text-sm text-muted-foreground">No templates found</p>
        ) : (
          <ul aria-label="Templates" className="-mx-1 max-h-[32rem] space-y-1 overflow-y-auto px-1 py-1">
            {shown.map((template) => (
              <li key={template.id}>
                <TemplateListItem
                  template={template}
                  selected={template.id === selectedId}
                  onSelect={() => onSelect(template)}
                />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

interface TemplateListItemProps {
  template: Template;
  selected: boolean;
  onSelect: () => void;
}

function TemplateListItem({ template, selected, onSelect }: TemplateListItemProps) {
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-current={selected ? 'true' : undefined}
      className={cn(
        'w-full rounded-md border px-3 py-2 text-left transition-colors hover:bg-muted',
        selected ? 'border-primary bg-accent text-accent-foreground hover:bg-accent' : 'border-transparent',
      )}
    >
      <span className="block truncate font-medium">{template.template_name}</span>
      <span className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
        <Badge>{template.message_type}</Badge>
        <span>v{template.version}</span>
        {!template.enabled && <EnabledBadge enabled={false} />}
      </span>
    </button>
  );
}
