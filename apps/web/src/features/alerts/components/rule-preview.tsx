import { alertConditionSchema, type AlertCondition } from '@lumi/contract';
import { useEffect, useMemo, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useConditionPreview } from '../api/preview-rule';
import type { RuleFormValues } from '../lib/rule-form';
import { EvaluationBadge } from './alert-badges';

/** Typing waits this long before the server is asked again. */
export const PREVIEW_DEBOUNCE_MS = 400;

/** The condition once it has not changed for the debounce time and the contract accepts it, else null. */
function useSettledCondition(): AlertCondition | null {
  const { control } = useFormContext<RuleFormValues>();
  const condition = useWatch({ control, name: 'condition' });
  // Compared as text: the watched object is a new one at each render.
  const text = JSON.stringify(condition);
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(text), PREVIEW_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text]);
  return useMemo(() => {
    const parsed = alertConditionSchema.safeParse(JSON.parse(settled));
    return parsed.success ? parsed.data : null;
  }, [settled]);
}

/**
 * The editor's live line (docs/bot-developers/alerts.md, "States"): what the condition would evaluate to now.
 * While a changed condition is evaluated, the previous answer stays, dimmed and marked busy.
 */
export function RulePreview() {
  const condition = useSettledCondition();
  const preview = useConditionPreview(condition);
  return (
    <section
      aria-label="Evaluates now"
      aria-live="polite"
      aria-busy={preview.isPlaceholderData}
      className="flex flex-wrap items-center gap-2 rounded-md bg-muted p-3 text-sm"
    >
      <span className="font-medium">Now:</span>
      {!condition ? (
        <span className="text-muted-foreground">Complete the condition to see what it evaluates to now.</span>
      ) : preview.isError ? (
        <span className="text-destructive">
          {errorMessage(preview.error, 'The condition could not be evaluated')}
        </span>
      ) : preview.data ? (
        <span className={cn('flex flex-wrap items-center gap-2', preview.isPlaceholderData && 'opacity-50')}>
          <EvaluationBadge holds={preview.data.holds} />
          <span>{preview.data.summary}</span>
        </span>
      ) : (
        <span className="text-muted-foreground">Evaluating…</span>
      )}
    </section>
  );
}
