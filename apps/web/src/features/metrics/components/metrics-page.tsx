import { Tabs } from 'radix-ui';
import { lazy, Suspense } from 'react';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { useLlmUsage } from '../api/get-llm-usage';
import { useChangeMarkers } from '../api/get-change-markers';
import { AutoRefreshContext } from '../hooks/auto-refresh-context';
import { useLlmUsageDays } from '../hooks/use-llm-usage-days';
import { useMetricsParams } from '../hooks/use-metrics-params';
import { autoRefreshMs } from '../lib/auto-refresh';
import { timeAxisPosition, type ChangePosition } from '../lib/change-position';
import type { GeminiWindow } from '../lib/gemini-series';
import { METRICS_TABS, parseMetricsTab } from '../lib/metrics-params';
import { usageDayOf } from '../lib/llm-usage-series';
import { resolveTimeRange, timeRangeKey, type TimeRange } from '../lib/time-range';
import { NearOnPhone } from './after-paint';
import { AutoRefreshPicker } from './auto-refresh-picker';
import { CallsTab } from './calls-tab';
import { GeminiUsagePanel } from './gemini-usage-panel';
import { IntegrationsPanel } from './integrations-panel';
import { LlmErrorsPanel } from './llm-errors-panel';
import { LlmFeaturesPanel } from './llm-features-panel';
import { LlmLatencyPanel } from './llm-latency-panel';
import { LlmUsagePanel } from './llm-usage-panel';
import { ModelPricesPanel } from './model-prices-panel';
import { PanelExportButton } from './panel-export-button';
import { TimeRangePicker } from './time-range-picker';
import { TokenBudgetsPanel } from './token-budgets-panel';
import { TopChatsPanel, TopUsersPanel } from './top-spenders-panel';

// The markers are recharts elements, drawn inside the charts: their code loads with the charts', after the
// screen's first view (docs/benchmarks.md, "The first signed-in load"), and each chart draws them once there.
const ChangeMarkers = lazy(() => import('./change-markers').then((m) => ({ default: m.ChangeMarkers })));

/** A change sits on the usage chart's day (its x axis is the calendar day in LUMI_TIMEZONE). */
const onUsageDay =
  (timeZone: string): ChangePosition =>
  (change) =>
    usageDayOf(change.at, timeZone);

const HOUR_MS = 3_600_000;

/** Where the latency chart draws a change: its axis starts at the whole hour the range begins in. */
function latencyPosition(range: TimeRange): ChangePosition {
  const { from, to } = resolveTimeRange(range, new Date());
  return timeAxisPosition(Math.floor(Date.parse(from) / HOUR_MS) * HOUR_MS, Date.parse(to));
}

/** The usage chart with the changes of its own days, and an export of its rows. */
function UsagePanelWithChanges() {
  const { days, setDays } = useLlmUsageDays();
  // The usage panel's days are whole days in LUMI_TIMEZONE: its answer names their hours, which its
  // export and change markers then cover, so the file and the flags hold what the chart shows.
  const usageWindow = useLlmUsage(days).data?.window;
  const usageRange: TimeRange | undefined = usageWindow && {
    kind: 'custom',
    from: usageWindow.from,
    to: usageWindow.to,
  };
  const usageChanges = useChangeMarkers(usageRange).data?.changes ?? [];
  return (
    <LlmUsagePanel
      days={days}
      onDaysChange={setDays}
      actions={usageRange && <PanelExportButton panel="usage" range={usageRange} />}
      markers={
        usageWindow &&
        usageChanges.length > 0 && (
          <Suspense>
            <ChangeMarkers changes={usageChanges} position={onUsageDay(usageWindow.timezone)} />
          </Suspense>
        )
      }
    />
  );
}

/** The latency chart, marking the changes of the chosen range. */
function LatencyPanelWithChanges({ range }: { range: TimeRange }) {
  const rangeChanges = useChangeMarkers(range).data?.changes ?? [];
  return (
    <LlmLatencyPanel
      range={range}
      markers={
        rangeChanges.length > 0 && (
          <Suspense>
            <ChangeMarkers changes={rangeChanges} position={latencyPosition(range)} />
          </Suspense>
        )
      }
    />
  );
}

/**
 * The LLM Usage tab: the Gemini panel, the usage chart with the changes of its own days, and the panels of
 * the chosen time range with the latency chart marking that range's changes, and an export of each
 * table-like panel's rows. Each panel asks for its own answers, so one arriving renders that panel alone
 * (docs/benchmarks.md, "The first signed-in load").
 */
function LlmUsageTab({
  hours,
  onHoursChange,
  range,
  onRangeChange,
}: {
  hours: GeminiWindow;
  onHoursChange: (hours: GeminiWindow) => void;
  range: TimeRange;
  onRangeChange: (range: TimeRange) => void;
}) {
  return (
    <>
      <GeminiUsagePanel hours={hours} onHoursChange={onHoursChange} />
      <UsagePanelWithChanges />
      <section aria-labelledby="metrics-range-heading" className="space-y-6">
        <div className="space-y-3 border-t pt-6">
          <h2 id="metrics-range-heading" className="text-lg font-semibold">
            Latency, errors and spend
          </h2>
          <p className="text-sm text-muted-foreground">
            Latency, errors and cost by feature add up the whole hours the range touches; top chats and users,
            kept per UTC day, the whole UTC days it touches. Each panel names the period it covers.
          </p>
          <TimeRangePicker key={timeRangeKey(range)} range={range} onChange={onRangeChange} />
        </div>
        <NearOnPhone
          label="The range's panels, shown when they are scrolled into view"
          fallback={<RangePanelsFallback />}
        >
          <LatencyPanelWithChanges range={range} />
          <div className="grid gap-6 lg:grid-cols-2">
            <LlmErrorsPanel range={range} />
            <LlmFeaturesPanel range={range} />
            <TopChatsPanel range={range} actions={<PanelExportButton panel="top-chats" range={range} />} />
            <TopUsersPanel range={range} actions={<PanelExportButton panel="top-users" range={range} />} />
          </div>
        </NearOnPhone>
      </section>
    </>
  );
}

/** The latency panel and the four below it, stacked as a phone shows them, until they are scrolled to. */
function RangePanelsFallback() {
  return (
    <div className="space-y-6">
      <Skeleton className="h-[32rem] w-full" />
      {Array.from({ length: 4 }, (_, index) => (
        <Skeleton key={index} className="h-80 w-full" />
      ))}
    </div>
  );
}

const triggerClass = cn(
  'rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground',
  'data-[state=active]:bg-accent data-[state=active]:text-accent-foreground data-[state=active]:shadow-sm',
);

/**
 * Metrics & Analytics (spec section 2): tabs LLM Usage, Token Budgets and Integrations, and Calls
 * (docs/operators/console-guide.md, "Metrics"); a dropdown instead of the tabs on small screens. The LLM
 * Usage tab ends with the panels of the chosen time range: latency, errors, cost by feature, top chats and
 * users. The tab, the Gemini window, the LLM usage days, the time range and the auto-refresh interval live
 * in the URL; auto-refresh applies to every query of the screen.
 */
export function MetricsPage() {
  const { tab, hours, range, refresh, setTab, setHours, setRange, setRefresh } = useMetricsParams();
  return (
    <AutoRefreshContext value={autoRefreshMs(refresh)}>
      <PageHeader
        title="Metrics & Analytics"
        subtitle="LLM usage and spend, token budgets and external integrations"
        actions={<AutoRefreshPicker value={refresh} onChange={setRefresh} />}
      />
      <Tabs.Root value={tab} onValueChange={(value) => setTab(parseMetricsTab(value))}>
        <Field label="Section" className="mb-4 sm:hidden">
          <Select value={tab} onChange={(event) => setTab(parseMetricsTab(event.target.value))}>
            {METRICS_TABS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </Field>
        <Tabs.List
          aria-label="Metrics sections"
          className="mb-4 hidden gap-1 rounded-lg border bg-muted/50 p-1 sm:inline-flex"
        >
          {METRICS_TABS.map((option) => (
            <Tabs.Trigger key={option.value} value={option.value} className={triggerClass}>
              {option.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="llm-usage" className="space-y-6">
          <LlmUsageTab hours={hours} onHoursChange={setHours} range={range} onRangeChange={setRange} />
        </Tabs.Content>
        <Tabs.Content value="calls">
          <CallsTab range={range} onRangeChange={setRange} />
        </Tabs.Content>
        <Tabs.Content value="token-budgets" className="space-y-6">
          <TokenBudgetsPanel />
          <ModelPricesPanel />
        </Tabs.Content>
        <Tabs.Content value="integrations">
          <IntegrationsPanel />
        </Tabs.Content>
      </Tabs.Root>
    </AutoRefreshContext>
  );
}
