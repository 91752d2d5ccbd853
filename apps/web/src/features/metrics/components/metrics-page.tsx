import { Tabs } from 'radix-ui';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { cn } from '@/lib/cn';
import { useLlmUsageDays } from '../hooks/use-llm-usage-days';
import { useMetricsParams } from '../hooks/use-metrics-params';
import { METRICS_TABS, parseMetricsTab } from '../lib/metrics-params';
import { GeminiUsagePanel } from './gemini-usage-panel';
import { IntegrationsPanel } from './integrations-panel';
import { LlmUsagePanel } from './llm-usage-panel';
import { ModelPricesPanel } from './model-prices-panel';
import { TokenBudgetsPanel } from './token-budgets-panel';

const triggerClass = cn(
  'rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground',
  'data-[state=active]:bg-accent data-[state=active]:text-accent-foreground data-[state=active]:shadow-sm',
);

/**
 * Metrics & Analytics (spec section 2): tabs LLM Usage, Token Budgets and Integrations; a dropdown
 * instead of the tabs on small screens. The tab, the Gemini window and the LLM usage range live in the URL.
 */
export function MetricsPage() {
  const { tab, hours, setTab, setHours } = useMetricsParams();
  const { days, setDays } = useLlmUsageDays();
  return (
    <div>
      <PageHeader
        title="Metrics & Analytics"
        subtitle="LLM usage and spend, token budgets and external integrations"
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
        </Tabs.Content>
        <Tabs.Content value="token-budgets" className="space-y-6">
          <TokenBudgetsPanel />
          <ModelPricesPanel />
        </Tabs.Content>
        <Tabs.Content value="integrations">
          <IntegrationsPanel />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
