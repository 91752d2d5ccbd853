import { ToggleGroup } from 'radix-ui';
import { cn } from '@/lib/cn';

interface WindowPickerProps<Value extends number | string> {
  value: Value;
  options: ReadonlyArray<{ value: Value; label: string }>;
  onChange: (value: Value) => void;
  /** Names the group for screen readers, e.g. "Time window". */
  label: string;
}

/** A panel's time window as a row of toggles: arrow keys move between the choices. */
export function WindowPicker<Value extends number | string>({
  value,
  options,
  onChange,
  label,
}: WindowPickerProps<Value>) {
  return (
    <ToggleGroup.Root
      type="single"
      value={String(value)}
      onValueChange={(next) => {
        const choice = options.find((option) => String(option.value) === next);
        if (choice) onChange(choice.value);
      }}
      aria-label={label}
      className="inline-flex rounded-md border bg-muted/50 p-0.5"
    >
      {options.map((option) => (
        <ToggleGroup.Item
          key={option.value}
          value={String(option.value)}
          className={cn(
            'rounded px-2.5 py-1 text-xs font-medium text-muted-foreground transition-colors',
            'hover:text-foreground data-[state=on]:bg-accent data-[state=on]:text-accent-foreground data-[state=on]:shadow-sm',
          )}
        >
          {option.label}
        </ToggleGroup.Item>
      ))}
    </ToggleGroup.Root>
  );
}
