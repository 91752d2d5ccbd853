import type { ConfigDomain, ConfigItem } from '@lumi/contract';
import { History } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Switch } from 'radix-ui';
import { Badge } from '@/components/ui/badge';
import { StateBadge } from '@/components/ui/state-badge';
import { Button } from '@/components/ui/button';
import { DeleteButton, EditButton } from '@/components/ui/row-actions';
import { EmptyRow, SkeletonRows, Table, Td, Th } from '@/components/ui/table';
import { contentPreview } from '../lib/content';
import { DOMAIN_LABELS } from '../lib/domains';

const SKELETON_ROWS = 4;
/** Spec section 9: the first 2 tags, then a count of the rest. */
const TAGS_SHOWN = 2;
/** Below this breakpoint the Content, Tags and Priority columns fold into the Name cell. */
const WIDE_ONLY = 'hidden md:table-cell';

interface ConfigItemsTableProps {
  domain: ConfigDomain;
  items: ConfigItem[];
  /** True when the domain has no items at all (not merely none that match the filters). */
  isEmptyDomain: boolean;
  isLoading: boolean;
  canWrite: boolean;
  /** The item whose active switch is being saved. */
  togglingId: number | undefined;
  onToggle: (item: ConfigItem, isActive: boolean) => void;
  /** Opens the item read-only (without canWrite, where its name is a button). */
  onView: (item: ConfigItem) => void;
  onEdit: (item: ConfigItem) => void;
  onHistory: (item: ConfigItem) => void;
  onDelete: (item: ConfigItem) => void;
  /** The ids ticked for Enable / Disable selected (with canWrite only). */
  selected: ReadonlySet<number>;
  onSelect: (ids: number[], checked: boolean) => void;
}

const checkboxClass = 'size-4 accent-primary align-middle';

/** Ticks every shown item, or none; half-ticked while only some are. */
function SelectAll({
  items,
  selected,
  onSelect,
}: Pick<ConfigItemsTableProps, 'items' | 'selected' | 'onSelect'>) {
  const ref = useRef<HTMLInputElement>(null);
  const count = items.filter((item) => selected.has(item.id)).length;
  const all = items.length > 0 && count === items.length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = count > 0 && !all;
  }, [count, all]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className={checkboxClass}
      aria-label="Select all shown items"
      checked={all}
      disabled={items.length === 0}
      onChange={(event) =>
        onSelect(
          items.map((item) => item.id),
          event.target.checked,
        )
      }
    />
  );
}

export function ConfigItemsTable(props: ConfigItemsTableProps) {
  const { domain, items, isEmptyDomain, isLoading, canWrite } = props;
  const columns = canWrite ? 7 : 5;
  // The skeleton's cells that fold away on a phone: Content, Tags and Priority.
  const firstWide = canWrite ? 2 : 1;
  const placeholderCell = (cell: number) =>
    cell >= firstWide && cell < firstWide + 3 ? WIDE_ONLY : undefined;
  return (
    <Table aria-busy={isLoading}>
      <caption className="sr-only">{DOMAIN_LABELS[domain]}</caption>
      <thead>
        <tr>
          {canWrite && (
            <Th className="w-8">
              <SelectAll items={items} selected={props.selected} onSelect={props.onSelect} />
            </Th>
          )}
          <Th>Name</Th>
          <Th className={WIDE_ONLY}>Content</Th>
          <Th className={WIDE_ONLY}>Tags</Th>
          <Th className={WIDE_ONLY}>Priority</Th>
          <Th>Active</Th>
          {canWrite && (
            <Th className="text-right">
              <span className="max-sm:sr-only">Actions</span>
            </Th>
          )}
        </tr>
      </thead>
      <tbody>
        {isLoading && <SkeletonRows rows={SKELETON_ROWS} columns={columns} cellClassName={placeholderCell} />}
        {!isLoading && items.length === 0 && (
          <EmptyRow columns={columns}>
            {isEmptyDomain ? `No ${DOMAIN_LABELS[domain].toLowerCase()} yet` : 'No items match these filters'}
          </EmptyRow>
        )}
        {!isLoading && items.map((item) => <ItemRow key={item.id} item={item} {...props} />)}
      </tbody>
    </Table>
  );
}

function TagList({ tags }: { tags: string[] }) {
  if (tags.length === 0) return <span className="text-muted-foreground">—</span>;
  const rest = tags.slice(TAGS_SHOWN);
  return (
    <span className="flex flex-wrap items-center gap-1">
      {tags.slice(0, TAGS_SHOWN).map((tag) => (
        <Badge key={tag} variant="primary">
          {tag}
        </Badge>
      ))}
      {rest.length > 0 && (
        <Badge title={rest.join(', ')}>
          +{rest.length}
          <span className="sr-only"> more: {rest.join(', ')}</span>
        </Badge>
      )}
    </span>
  );
}

/** One line, cut with an ellipsis rather than mid-word ("greetin g"); the whole preview is in its title. */
function ContentPreview({ item }: { item: ConfigItem }) {
  const preview = contentPreview(item.content);
  // A cell's max-width does not bind in an auto-layout table; the preview's own width does.
  return (
    <code
      title={preview}
      className="block max-w-32 truncate font-mono text-xs text-muted-foreground sm:max-w-xs"
    >
      {preview}
    </code>
  );
}

function ActiveSwitch({
  item,
  busy,
  onToggle,
}: {
  item: ConfigItem;
  busy: boolean;
  onToggle: (on: boolean) => void;
}) {
  return (
    <Switch.Root
      checked={item.is_active}
      disabled={busy}
      onCheckedChange={onToggle}
      aria-label={`Active: ${item.name}`}
      className="relative inline-flex h-5 w-9 shrink-0 items-center rounded-full border-2 border-transparent bg-input transition-colors disabled:opacity-50 data-[state=checked]:bg-primary"
    >
      <Switch.Thumb className="block size-4 rounded-full bg-card shadow transition-transform data-[state=checked]:translate-x-4" />
    </Switch.Root>
  );
}

function ItemRow({
  item,
  canWrite,
  togglingId,
  onToggle,
  onView,
  onEdit,
  onHistory,
  onDelete,
  selected,
  onSelect,
}: ConfigItemsTableProps & { item: ConfigItem }) {
  return (
    <tr className="hover:bg-muted/40">
      {canWrite && (
        <Td className="w-8">
          <input
            type="checkbox"
            className={checkboxClass}
            aria-label={`Select ${item.name}`}
            checked={selected.has(item.id)}
            onChange={(event) => onSelect([item.id], event.target.checked)}
          />
        </Td>
      )}
      <Td className="md:min-w-40">
        {canWrite ? (
          <div className="font-medium break-words">{item.name}</div>
        ) : (
          // A reader has no Actions column (spec section 2); the name opens the item read-only.
          <button
            type="button"
            aria-label={`View ${item.name}`}
            onClick={() => onView(item)}
            className="text-left font-medium break-words text-primary underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            {item.name}
          </button>
        )}
        {item.description && (
          <div className="text-xs break-words text-muted-foreground">{item.description}</div>
        )}
        <div className="mt-1 space-y-1 md:hidden">
          <ContentPreview item={item} />
          {item.tags.length > 0 && <TagList tags={item.tags} />}
          <div className="text-xs text-muted-foreground">Priority {item.priority}</div>
        </div>
      </Td>
      <Td className={WIDE_ONLY}>
        <ContentPreview item={item} />
      </Td>
      <Td className={WIDE_ONLY}>
        <TagList tags={item.tags} />
      </Td>
      <Td className={`${WIDE_ONLY} tabular-nums`}>{item.priority}</Td>
      <Td>
        {canWrite ? (
          <ActiveSwitch item={item} busy={togglingId === item.id} onToggle={(on) => onToggle(item, on)} />
        ) : (
          <StateBadge on={item.is_active} />
        )}
      </Td>
      {canWrite && (
        <Td className="text-right">
          {/* On a phone the three actions stand in a column, so the row fits and none hides off-screen. */}
          <div className="flex justify-end max-sm:flex-col max-sm:items-end">
            <EditButton label={`Edit ${item.name}`} onClick={() => onEdit(item)} />
            <Button
              variant="ghost"
              size="icon"
              aria-label={`History of ${item.name}`}
              onClick={() => onHistory(item)}
            >
              <History aria-hidden />
            </Button>
            <DeleteButton label={`Delete ${item.name}`} onClick={() => onDelete(item)} />
          </div>
        </Td>
      )}
    </tr>
  );
}
