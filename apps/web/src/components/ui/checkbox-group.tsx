import { useId, type ReactNode } from 'react';

interface CheckboxGroupProps {
  legend: ReactNode;
  /** The group's validation message; the fieldset is described by it. */
  error?: string;
  children: ReactNode;
}

/** A set of checkboxes named by a legend, with one validation message for the whole set. */
export function CheckboxGroup({ legend, error, children }: CheckboxGroupProps) {
  const errorId = useId();
  return (
    <fieldset aria-describedby={error ? errorId : undefined} className="space-y-2">
      <legend className="mb-1.5 text-sm font-medium">{legend}</legend>
      {children}
      {error && (
        <p id={errorId} className="text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}
