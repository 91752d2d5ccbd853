import { useId } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import type { SampleDataState } from '../hooks/use-sample-data';

/**
 * The editable sample JSON the Preview and Test panels and Send now share, bound to the editor's
 * useSampleData. While it does not parse it says why in the error colour: the preview keeps the last valid
 * data, and nothing is sent until it is fixed.
 */
export function SampleDataField({ sample }: { sample: SampleDataState }) {
  const { text, setText: onChange, problem, loading } = sample;
  const id = useId();
  if (loading) return <Skeleton className="h-48 w-full" />;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium">
        Sample data (JSON)
      </label>
      <Textarea
        id={id}
        value={text}
        onChange={(event) => onChange(event.target.value)}
        rows={10}
        spellCheck={false}
        aria-describedby={`${id}-hint`}
        aria-invalid={problem !== null}
        className="font-mono text-xs"
      />
      <p
        id={`${id}-hint`}
        role="status"
        className={cn('text-xs', problem ? 'font-medium text-destructive' : 'text-muted-foreground')}
      >
        {problem
          ? `${problem}. Sending is off until it is fixed; the preview shows the last valid data.`
          : 'Edit the values to try other data.'}
      </p>
    </div>
  );
}
