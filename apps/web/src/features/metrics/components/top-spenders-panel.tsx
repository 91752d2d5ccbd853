import type { LlmTopChats, LlmTopUsers } from '@lumi/contract';
import type { ReactNode } from 'react';
import { ResponsiveTable, type ResponsiveColumn } from '@/components/ui/responsive-table';
import { formatCurrency } from '@/lib/format';
import { useLlmTopChats } from '../api/get-llm-top-chats';
import { useLlmTopUsers } from '../api/get-llm-top-users';
import { formatCount } from '../lib/format-metrics';
import { panelErrorMessage } from '../lib/panel-error';
import { describeUtcDays, type TimeRange } from '../lib/time-range';
import { CopyIdButton } from './copy-id-button';
import { CallsLink } from './calls-link';
import { SubjectActions } from './subject-actions';
import { MetricCard, Totals } from './metric-card';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';

interface Spend {
  requests: number;
  tokens: number;
  cost_usd: number;
}
/** A listed chat (user) by its Telegram id, or the one row summing the rest (id null). */
type SpenderRow = Spend & { id: string | null };

interface Words {
  title: string;
  /** "Chat": the id column's heading. */
  column: string;
  /** "chat id": the copy button's name. */
  idName: string;
  /** "Other chats": the row summing every chat not listed. */
  other: string;
  /** "chats": the empty state's words. */
  plural: string;
  /** The Calls tab's filter for one row. */
  filter: 'chat_id' | 'user_id';
}

function columns(words: Words, range: TimeRange): ReadonlyArray<ResponsiveColumn<SpenderRow>> {
  return [
    {
      header: words.column,
      primary: true,
      cell: (row) =>
        row.id === null ? (
          <span className="text-muted-foreground italic">{words.other}</span>
        ) : (
          <span className="inline-flex flex-wrap items-center gap-x-1">
            <span className="font-mono text-xs break-all">{row.id}</span>
            <CopyIdButton value={row.id} name={words.idName} />
            <SubjectActions kind={words.filter === 'chat_id' ? 'chat' : 'user'} id={row.id} />
          </span>
        ),
    },
    { header: 'Requests', numeric: true, cell: (row) => formatCount(row.requests) },
    { header: 'Tokens', numeric: true, cell: (row) => formatCount(row.tokens) },
    { header: 'Cost', numeric: true, cell: (row) => formatCurrency(row.cost_usd) },
    {
      header: 'Calls',
      headerHidden: true,
      cell: (row) =>
        row.id !== null && (
          <CallsLink
            filters={{ [words.filter]: row.id }}
            range={range}
            name={`${words.column.toLowerCase()} ${row.id}`}
          />
        ),
    },
  ];
}

interface TopSpendersProps {
  words: Words;
  range: TimeRange;
  data: { from_day: string; to_day: string; rows: SpenderRow[]; other: Spend; total: Spend } | undefined;
  isPending: boolean;
  /** The failure, when loading failed. */
  error: unknown;
  onRetry: () => void;
  actions?: ReactNode;
}

/**
 * The chats (users) that cost most, with their requests, and the rest summed as one row. Their spend is
 * kept per UTC day, so the panel adds up the whole UTC days the range touches, and says which.
 */
function TopSpenders({ words, range, data, isPending, error, onRetry, actions }: TopSpendersProps) {
  const rows = data ? [...data.rows, ...(data.other.requests > 0 ? [{ ...data.other, id: null }] : [])] : [];
  return (
    <MetricCard
      title={words.title}
      description={data ? describeUtcDays(data, new Date()) : 'Whole UTC days'}
      actions={actions}
    >
      {isPending && <PanelSkeleton label={words.title} rows={4} />}
      {error !== null && !data && <PanelError message={panelErrorMessage(error)} onRetry={onRetry} />}
      {data && rows.length === 0 && <PanelEmpty>No {words.plural} in this range.</PanelEmpty>}
      {data && rows.length > 0 && (
        <div className="space-y-4">
          <Totals
            items={[
              { label: 'Cost', value: formatCurrency(data.total.cost_usd) },
              { label: 'Requests', value: formatCount(data.total.requests) },
            ]}
          />
          <ResponsiveTable
            aria-label={words.title}
            columns={columns(words, range)}
            rows={rows}
            rowKey={(row) => row.id ?? ''}
          />
        </div>
      )}
    </MetricCard>
  );
}

const CHAT_WORDS: Words = {
  title: 'Top chats',
  column: 'Chat',
  idName: 'chat id',
  other: 'Other chats',
  plural: 'chats',
  filter: 'chat_id',
};
const USER_WORDS: Words = {
  title: 'Top users',
  column: 'User',
  idName: 'user id',
  other: 'Other users',
  plural: 'users',
  filter: 'user_id',
};

const chatRows = (data: LlmTopChats) =>
  data.chats.map(({ chat_id, ...spend }) => ({ ...spend, id: chat_id }));
const userRows = (data: LlmTopUsers) =>
  data.users.map(({ user_id, ...spend }) => ({ ...spend, id: user_id }));

interface PanelProps {
  range: TimeRange;
  /** Buttons in the panel's header (an export of its rows, say). */
  actions?: ReactNode;
}

/** The chats that cost most over the UTC days the range touches. */
export function TopChatsPanel({ range, actions }: PanelProps) {
  const query = useLlmTopChats(range);
  return (
    <TopSpenders
      words={CHAT_WORDS}
      range={range}
      data={query.data && { ...query.data, rows: chatRows(query.data) }}
      isPending={query.isPending}
      error={query.error}
      onRetry={() => void query.refetch()}
      actions={actions}
    />
  );
}

/** The users that cost most over the UTC days the range touches. */
export function TopUsersPanel({ range, actions }: PanelProps) {
  const query = useLlmTopUsers(range);
  return (
    <TopSpenders
      words={USER_WORDS}
      range={range}
      data={query.data && { ...query.data, rows: userRows(query.data) }}
      isPending={query.isPending}
      error={query.error}
      onRetry={() => void query.refetch()}
      actions={actions}
    />
  );
}
