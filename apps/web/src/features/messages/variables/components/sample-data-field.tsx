import { useId } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/input';
import type { SampleDataState } from '../hooks/use-sample-data';

/** The editable sample JSON the Preview and Test panels share, bound to the editor's useSampleData. */
export function SampleDataField({ sample }: { sample: SampleDataState }) {
  const { text, setText: onChange, invalid, loading } = sample;
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
        className="font-mono text-xs"
      />
      <p id={`${id}-hint`} role="status" className="text-xs text-muted-foreground">
        {invalid ? 'Not valid JSON yet: the last valid data is used.' : 'Edit the values to try other data.'}
      </p>
    </div>
  );
}
