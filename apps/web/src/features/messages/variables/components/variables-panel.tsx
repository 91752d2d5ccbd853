import { DEFAULT_VARIABLE_CATEGORY, TEMPLATE_HELPERS, type Variable } from '@lumi/contract';
import { Plus } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useVariables } from '../api/list-variables';
import { Panel } from '../../components/panel';

/** Variables by category, in the order the server lists them (by category, then name). */
function groupByCategory(variables: readonly Variable[]): Array<[string, Variable[]]> {
  const groups = new Map<string, Variable[]>();
  for (const variable of variables) {
    const category = variable.category || DEFAULT_VARIABLE_CATEGORY;
    groups.set(category, [...(groups.get(category) ?? []), variable]);
  }
  return [...groups];
}

/** The Variables panel: the catalogue with an insert button each, and the helpers a template may call. */
export function VariablesPanel({ onInsert }: { onInsert?: (variableName: string) => void }) {
  const variables = useVariables();
  return (
    <Panel id="variables-panel-title" title="Variables">
      {variables.isPending ? (
        <div className="space-y-2">
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      ) : variables.isError ? (
        <p className="text-sm text-destructive">Failed to load variables</p>
      ) : variables.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">No variables defined</p>
      ) : (
        // Scrolls on its own so the panels below stay near the editor; focusable to scroll by keyboard.
        <div
          role="region"
          aria-label="Variable list"
          tabIndex={0}
          className="-mx-1 max-h-[26rem] space-y-4 overflow-y-auto px-1"
        >
          {groupByCategory(variables.data).map(([category, items]) => (
            <div key={category}>
              <h4 className="mb-1.5 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                {category}
              </h4>
              <ul className="space-y-2">
                {items.map((variable) => (
                  <VariableItem key={variable.id} variable={variable} onInsert={onInsert} />
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
      <h4 className="mt-5 mb-1.5 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
        Helpers
      </h4>
      <ul className="space-y-1.5 text-xs">
        {TEMPLATE_HELPERS.map((helper) => (
          <li key={helper.name}>
            <code className="font-semibold">{helper.name}</code>
            <span className="text-muted-foreground">: {helper.description}</span>
            <code className="mt-0.5 block break-all text-muted-foreground">{helper.usage}</code>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

function VariableItem({ variable, onInsert }: { variable: Variable; onInsert?: (name: string) => void }) {
  const token = `{{${variable.variable_name}}}`;
  return (
    <li className="rounded-md border bg-card p-2 text-xs">
      <div className="flex items-center justify-between gap-2">
        <code className="text-sm font-semibold break-all">{token}</code>
        {onInsert && (
          <Button
            variant="ghost"
            size="sm"
            className="h-7 shrink-0 px-2"
            aria-label={`Insert ${token}`}
            onClick={() => onInsert(variable.variable_name)}
          >
            <Plus aria-hidden />
            Insert
          </Button>
        )}
      </div>
      <p className="mt-0.5 text-muted-foreground">
        <Badge className="mr-1">{variable.data_type}</Badge>
        {variable.description}
      </p>
      {variable.example_value !== null && (
        <p className="mt-1 break-all">
          <span className="text-muted-foreground">Example: </span>
          <code>{variable.example_value}</code>
        </p>
      )}
      {variable.available_helpers.length > 0 && (
        <ul aria-label={`Helpers for ${variable.variable_name}`} className="mt-1.5 flex flex-wrap gap-1">
          {variable.available_helpers.map((helper) => (
            <li key={helper}>
              <Badge variant="primary">{helper}</Badge>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
