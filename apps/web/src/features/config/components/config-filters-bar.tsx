import { Search } from 'lucide-react';
import { useId } from 'react';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import type { ActiveFilter, ConfigFilters } from '../lib/filter-items';

interface ConfigFiltersBarProps {
  filters: ConfigFilters;
  /** The tags used in this domain. */
  tags: string[];
  onChange: <K extends keyof ConfigFilters>(name: K, value: ConfigFilters[K]) => void;
}

/** Search by name and filter by tag and active state; every change applies at once (the list is local). */
export function ConfigFiltersBar({ filters, tags, onChange }: ConfigFiltersBarProps) {
  const searchId = useId();
  // A tag from an old link that no item carries any more stays selectable, so the filter stays visible.
  const tagOptions = filters.tag && !tags.includes(filters.tag) ? [filters.tag, ...tags] : tags;
  return (
    <div role="search" aria-label="Filter items" className="grid w-full gap-3 sm:grid-cols-3 lg:max-w-3xl">
      <div className="space-y-1.5">
        <label htmlFor={searchId} className="block text-sm font-medium">
          Search
        </label>
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            id={searchId}
            type="search"
            placeholder="Search by name..."
            value={filters.search}
            onChange={(event) => onChange('search', event.target.value)}
            className="pl-9"
          />
        </div>
      </div>
      <Field label="Tag">
        <Select value={filters.tag} onChange={(event) => onChange('tag', event.target.value)}>
          <option value="">All tags</option>
          {tagOptions.map((tag) => (
            <option key={tag} value={tag}>
              {tag}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Status">
        <Select
          value={filters.active}
          onChange={(event) => onChange('active', event.target.value as ActiveFilter)}
        >
          <option value="all">Active and inactive</option>
          <option value="active">Active only</option>
          <option value="inactive">Inactive only</option>
        </Select>
      </Field>
    </div>
  );
}
