import type { LlmCallDetail } from '@lumi/contract';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { PageHeader } from '@/components/ui/page-header';
import { formatCurrency, formatDateTime } from '@/lib/format';
import { useLlmCall } from '../api/get-llm-call';
import { callsLink } from '../lib/call-filters';
import type { TimeRange } from '../lib/time-range';
import { formatCount } from '../lib/format-metrics';
import { panelErrorMessage } from '../lib/panel-error';
import { CallContent } from './call-content';
import { CopyIdButton } from './copy-id-button';
import { MetricCard } from './metric-card';
import { PanelError, PanelSkeleton } from './panel-states';
import { SubjectActions } from './subject-actions';

const COST_SOURCES = {
  bot: 'Reported by the bot',
  priced: 'Priced by Lumi',
  unpriced: 'Unpriced: no price or no token usage',
} as const;

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm break-words">{children}</dd>
    </div>
  );
}

/** A row with an id in full and a copy button (`name` says which id, for the button's label). */
function IdRow({ label, value, name }: { label: string; value: string | null; name: string }) {
  return (
    <Row label={label}>
      {value ? (
        <span className="inline-flex items-center gap-1 font-mono text-xs break-all">
          {value}
          <CopyIdButton value={value} name={name} />
        </span>
      ) : (
        '—'
      )}
    </Row>
  );
}

const DAY_MS = 86_400_000;

/** A dimension's value, linked to the other calls that share it in the day either side of this one. */
function Related({
  value,
  filter,
  ts,
}: {
  value: string | null;
  filter: 'chat_id' | 'user_id' | 'feature' | 'model';
  ts: string;
}) {
  if (!value) return <>—</>;
  const at = Date.parse(ts);
  const around: TimeRange = {
    kind: 'custom',
    from: new Date(at - DAY_MS).toISOString(),
    to: new Date(at + DAY_MS).toISOString(),
  };
  return (
    <Link to={callsLink({ [filter]: value }, around)} className="underline-offset-2 hover:underline">
      {value}
    </Link>
  );
}

/** The call's chat or user: its other calls, and what may be done to it (its limits). */
function SubjectRow({
  label,
  kind,
  id,
  ts,
}: {
  label: string;
  kind: 'chat' | 'user';
  id: string | null;
  ts: string;
}) {
  return (
    <Row label={label}>
      <Related value={id} filter={`${kind}_id`} ts={ts} />
      {id && (
        <span className="ml-1">
          <SubjectActions kind={kind} id={id} />
        </span>
      )}
    </Row>
  );
}

function CallDetails({ call }: { call: LlmCallDetail }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <CallSummary call={call} />
      <CallContent call={call} />
    </div>
  );
}

function CallSummary({ call }: { call: LlmCallDetail }) {
  return (
    <>
      <MetricCard title="Call">
        <dl className="divide-y">
          <Row label="Status">
            {call.success ? (
              <Badge variant="success">OK</Badge>
            ) : (
              <Badge variant="destructive">{call.error_type}</Badge>
            )}
          </Row>
          <Row label="Time">{formatDateTime(call.ts)}</Row>
          <Row label="Provider">{call.provider}</Row>
          <Row label="Model">
            <Related value={call.model} filter="model" ts={call.ts} />
            {call.response_model && (
              <span className="block text-xs text-muted-foreground">answered as {call.response_model}</span>
            )}
          </Row>
          <Row label="Feature">
            <Related value={call.feature} filter="feature" ts={call.ts} />
          </Row>
          <SubjectRow label="Chat" kind="chat" id={call.chat_id} ts={call.ts} />
          <SubjectRow label="User" kind="user" id={call.user_id} ts={call.ts} />
        </dl>
      </MetricCard>
      <MetricCard title="Usage">
        <dl className="divide-y">
          <Row label="Tokens in">{call.usage_known ? formatCount(call.input_tokens) : 'Unknown'}</Row>
          <Row label="Tokens out">{call.usage_known ? formatCount(call.output_tokens) : 'Unknown'}</Row>
          <Row label="Cost">
            {formatCurrency(call.cost_usd)}
            <span className="block text-xs text-muted-foreground">{COST_SOURCES[call.cost_source]}</span>
          </Row>
          <Row label="Latency">{formatCount(Math.round(call.latency_ms))} ms</Row>
          <Row label="From the bot's cache">{call.cached ? 'Yes' : 'No'}</Row>
        </dl>
      </MetricCard>
      <MetricCard title="Where it came from" className="lg:col-span-2">
        <dl className="divide-y">
          <IdRow label="Call id" value={call.id} name="call id" />
          <IdRow label="Bot's event id" value={call.client_id} name="event id" />
          <IdRow label="Trace id" value={call.trace_id} name="trace id" />
          <IdRow label="Span id" value={call.span_id} name="span id" />
          <Row label="API key">{call.api_key ? call.api_key.name : 'Not recorded'}</Row>
        </dl>
      </MetricCard>
    </>
  );
}

/**
 * One LLM call (docs/operators/console-guide.md, "Calls"): everything Lumi keeps of it, its ids to find it in
 * the bot's own traces, and links to the calls that share its chat, user, feature or model.
 */
export function CallPage() {
  const { id = '' } = useParams();
  const call = useLlmCall(id);
  return (
    <>
      <PageHeader
        title="LLM Call"
        subtitle={
          call.data
            ? `${call.data.model} · ${formatDateTime(call.data.ts)}`
            : 'Everything Lumi keeps of one call'
        }
        actions={
          <Link
            to={callsLink({})}
            className="inline-flex items-center gap-1 text-sm font-medium underline-offset-2 hover:underline"
          >
            <ArrowLeft aria-hidden className="size-4" />
            All calls
          </Link>
        }
      />
      {call.isPending && <PanelSkeleton label="LLM call" rows={6} />}
      {call.isError && (
        <PanelError message={panelErrorMessage(call.error)} onRetry={() => void call.refetch()} />
      )}
      {call.data && <CallDetails call={call.data} />}
    </>
  );
}
