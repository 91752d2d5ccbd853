import { TELEGRAM_ID_PATTERN, type LimitDenial } from '@lumi/contract';
import { X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { LoadError } from '@/components/ui/load-error';
import { LoadMore } from '@/components/ui/load-more';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { SkeletonList } from '@/components/ui/skeleton';
import { ViewSection } from '@/components/ui/view-section';
import { formatDateTime } from '@/lib/format';
import { useLimit } from '../api/get-limit';
import { useDenials } from '../api/list-denials';
import { useDenialFilters, type DenialFilters } from '../hooks/use-denial-filters';
import { ALLOWANCE_REASON_LABELS, describeLimit, describeWho } from '../lib/limit-text';

const ID_PROBLEM = 'Must be a Telegram id such as -1001234567890';

type TypedFilter = 'chatId' | 'userId';
const TYPED: ReadonlyArray<{ name: TypedFilter; label: string; placeholder: string }> = [
  { name: 'chatId', label: 'Chat id', placeholder: '-1001234567890' },
  { name: 'userId', label: 'User id', placeholder: '123456789' },
];

interface FilterFormProps {
  filters: DenialFilters;
  onApply: (values: Record<TypedFilter, string | null>) => void;
}

/** The chat and user ids typed, applied together (a half-typed id is not asked for). */
function FilterForm({ filters, onApply }: FilterFormProps) {
  const [values, setValues] = useState({ chatId: filters.chatId ?? '', userId: filters.userId ?? '' });
  const [errors, setErrors] = useState<Partial<Record<TypedFilter, string>>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems: Partial<Record<TypedFilter, string>> = {};
    const next: Record<TypedFilter, string | null> = { chatId: null, userId: null };
    for (const { name } of TYPED) {
      const value = values[name].trim();
      if (!value) continue;
      if (TELEGRAM_ID_PATTERN.test(value)) next[name] = value;
      else problems[name] = ID_PROBLEM;
    }
    setErrors(problems);
    if (Object.keys(problems).length === 0) onApply(next);
  };
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Filter the denials"
      className="flex flex-wrap items-start gap-3"
    >
      {TYPED.map(({ name, label, placeholder }) => (
        <Field key={name} label={label} error={errors[name]} className="w-full sm:w-56">
          <Input
            value={values[name]}
            placeholder={placeholder}
            inputMode="numeric"
            autoComplete="off"
            onChange={(event) => setValues((previous) => ({ ...previous, [name]: event.target.value }))}
          />
        </Field>
      ))}
      <Button type="submit" size="sm" variant="secondary" className="sm:mt-7">
        Apply Filters
      </Button>
    </form>
  );
}

/** The limit a denial names, in words; one deleted since is named by its number. */
function LimitCell({ denial }: { denial: LimitDenial }) {
  const { limit_id: id, limit } = denial;
  if (id === null) return <span className="text-muted-foreground">—</span>;
  if (!limit) return <span className="text-muted-foreground">Limit {id} (deleted)</span>;
  return (
    <span className="max-sm:text-right">
      {describeWho(limit.scope, limit.subject)}: {describeLimit(limit)}
    </span>
  );
}

/** A chat's or user's id, in figures of one width. */
function Id({ children }: { children: string }) {
  return <span className="font-mono text-xs">{children}</span>;
}

function DenialsTable({ denials }: { denials: LimitDenial[] }) {
  const dash = <span className="text-muted-foreground">—</span>;
  return (
    <ResponsiveTable
      aria-label="Denied calls"
      rows={denials}
      rowKey={(denial) => denial.id}
      columns={[
        {
          header: 'Time',
          primary: true,
          className: 'whitespace-nowrap',
          cell: (denial) => <time dateTime={denial.ts}>{formatDateTime(denial.ts)}</time>,
        },
        { header: 'Chat', cell: (denial) => (denial.chat_id ? <Id>{denial.chat_id}</Id> : dash) },
        { header: 'User', cell: (denial) => (denial.user_id ? <Id>{denial.user_id}</Id> : dash) },
        {
          header: 'Feature',
          // A feature's name is the bot's own, up to 64 characters: wrapped, not a column of its own width.
          className: 'min-w-32 [overflow-wrap:anywhere]',
          cell: (denial) => denial.feature ?? dash,
        },
        {
          header: 'Reason',
          cell: (denial) => <Badge variant="destructive">{ALLOWANCE_REASON_LABELS[denial.reason]}</Badge>,
        },
        { header: 'Limit', cell: (denial) => <LimitCell denial={denial} /> },
      ]}
    />
  );
}

/**
 * Limits > Denials (docs/operators/limits.md): the calls a ban or a hard limit denied, newest first, with
 * how many in the last 24 hours; filtered by chat, user or limit (all in the URL; the count too), 50 at a time.
 */
export function DenialsView() {
  const { filters, setFilter, setFilters, clearFilters } = useDenialFilters();
  const denials = useDenials(filters);
  const rows = denials.data?.pages.flatMap((page) => page.denials) ?? [];
  const total = denials.data?.pages[0]?.total_24h;
  const filtered = Object.values(filters).some((value) => value !== null);
  // Named by a denial listed, or else read: none of it may be listed (a chat filter beside it, say).
  const namedByRow =
    filters.limitId === null ? null : rows.find((denial) => denial.limit_id === filters.limitId)?.limit;
  const read = useLimit(namedByRow || denials.isPending ? null : filters.limitId);
  const filteredLimit = namedByRow ?? read.data;

  return (
    <ViewSection
      id="denials-heading"
      title="Denials"
      description={
        total === undefined
          ? 'Calls a ban or a hard limit denied'
          : `${total.toLocaleString()} ${filtered ? 'matching ' : ''}${total === 1 ? 'call' : 'calls'} denied in the last 24 hours`
      }
      actions={
        filtered && (
          <Button variant="secondary" size="sm" onClick={clearFilters}>
            Clear filters
          </Button>
        )
      }
    >
      <FilterForm
        // A new set of filters from the URL (Clear filters, a link) starts the inputs again.
        key={`${filters.chatId}|${filters.userId}`}
        filters={filters}
        onApply={setFilters}
      />
      {filters.limitId !== null && (
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <span>
            Denied by{' '}
            {filteredLimit
              ? `${describeWho(filteredLimit.scope, filteredLimit.subject)}: ${describeLimit(filteredLimit)}`
              : `limit ${filters.limitId}`}
          </span>
          <Button
            variant="ghost"
            size="sm"
            aria-label="Show the denials of every limit"
            onClick={() => setFilter('limitId', null)}
          >
            <X aria-hidden />
          </Button>
        </p>
      )}
      {denials.isPending ? (
        <SkeletonList label="Loading denials" rows={4} rowClassName="h-10" />
      ) : denials.isError && !denials.data ? (
        <LoadError title="Failed to load the denials" query={denials} />
      ) : rows.length === 0 ? (
        <EmptyState>{filtered ? 'No denials match these filters' : 'No calls have been denied.'}</EmptyState>
      ) : (
        <DenialsTable denials={rows} />
      )}
      <LoadMore pages={denials} failure="Failed to load more denials" />
    </ViewSection>
  );
}
