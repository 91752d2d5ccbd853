import { Tabs } from 'radix-ui';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { cn } from '@/lib/cn';
import { AutoRefreshContext } from '../hooks/auto-refresh-context';
import { useLlmUsageDays } from '../hooks/use-llm-usage-days';
import { useMetricsParams } from '../hooks/use-metrics-params';
import { autoRefreshMs } from '../lib/auto-refresh';
import { METRICS_TABS, parseMetricsTab } from '../lib/metrics-params';
import { timeRangeKey } from '../lib/time-range';
import { AutoRefreshPicker } from './auto-refresh-picker';
import { GeminiUsagePanel } from './gemini-usage-panel';
import { IntegrationsPanel } from './integrations-panel';
import { LlmErrorsPanel } from './llm-errors-panel';
import { LlmFeaturesPanel } from './llm-features-panel';
import { LlmLatencyPanel } from './llm-latency-panel';
import { LlmUsagePanel } from './llm-usage-panel';
import { ModelPricesPanel } from './model-prices-panel';
import { TimeRangePicker } from './time-range-picker';
import { TokenBudgetsPanel } from './token-budgets-panel';
import { TopChatsPanel, TopUsersPanel } from './top-spenders-panel';

const triggerClass = cn(
  'rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground',
  'data-[state=active]:bg-accent data-[state=active]:text-accent-foreground data-[state=active]:shadow-sm',
);

/**
 * Metrics & Analytics (spec section 2): tabs LLM Usage, Token Budgets and Integrations; a dropdown
 * instead of the tabs on small screens. The LLM Usage tab ends with the panels of the chosen time range
 * (issue 17): latency, errors, cost by feature, top chats and users. The tab, the Gemini window, the LLM
 * usage days, the time range and the auto-refresh interval live in the URL; auto-refresh applies to every
 * query of the screen.
 */
export function MetricsPage() {
  const { tab, hours, range, refresh, setTab, setHours, setRange, setRefresh } = useMetricsParams();
  const { days, setDays } = useLlmUsageDays();
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
          <GeminiUsagePanel hours={hours} onHoursChange={setHours} />
          <LlmUsagePanel days={days} onDaysChange={setDays} />
          <section aria-labelledby="metrics-range-heading" className="space-y-6">
            <div className="space-y-3 border-t pt-6">
              <h2 id="metrics-range-heading" className="text-lg font-semibold">
                Latency, errors and spend
              </h2>
              <TimeRangePicker key={timeRangeKey(range)} range={range} onChange={setRange} />
            </div>
            <LlmLatencyPanel range={range} />
            <div className="grid gap-6 lg:grid-cols-2">
              <LlmErrorsPanel range={range} />
              <LlmFeaturesPanel range={range} />
              <TopChatsPanel range={range} />
              <TopUsersPanel range={range} />
            </div>
          </section>
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
