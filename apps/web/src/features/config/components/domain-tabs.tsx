import { CONFIG_DOMAINS, type ConfigDomain } from '@lumi/contract';
import { Tabs } from 'radix-ui';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { DOMAIN_LABELS } from '../lib/domains';
import { ConfigDomainPanel } from './config-domain-panel';

interface DomainTabsProps {
  tab: ConfigDomain;
  onTabChange: (domain: ConfigDomain) => void;
  canWrite: boolean;
}

const triggerClass = cn(
  '-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium whitespace-nowrap text-muted-foreground',
  'hover:text-foreground data-[state=active]:border-primary data-[state=active]:text-foreground',
);

/** One tab per domain; below the large breakpoint the tabs are a drop-down, as on the Metrics screen. */
export function DomainTabs({ tab, onTabChange, canWrite }: DomainTabsProps) {
  return (
    <Tabs.Root value={tab} onValueChange={(value) => onTabChange(value as ConfigDomain)}>
      <Field label="Section" className="mb-4 lg:hidden">
        <Select value={tab} onChange={(event) => onTabChange(event.target.value as ConfigDomain)}>
          {CONFIG_DOMAINS.map((domain) => (
            <option key={domain} value={domain}>
              {DOMAIN_LABELS[domain]}
            </option>
          ))}
        </Select>
      </Field>
      <Tabs.List aria-label="Configuration sections" className="mb-4 hidden border-b lg:flex">
        {CONFIG_DOMAINS.map((domain) => (
          <Tabs.Trigger key={domain} value={domain} className={triggerClass}>
            {DOMAIN_LABELS[domain]}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {CONFIG_DOMAINS.map((domain) => (
        <Tabs.Content key={domain} value={domain} className="outline-none">
          <ConfigDomainPanel domain={domain} canWrite={canWrite} />
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
