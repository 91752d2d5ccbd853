import { ToggleGroup } from 'radix-ui';
import { cn } from '@/lib/cn';
import type { GeminiWindow } from '../lib/gemini-series';

const WINDOWS: ReadonlyArray<{ hours: GeminiWindow; label: string }> = [
  { hours: 24, label: '24 h' },
  { hours: 48, label: '48 h' },
  { hours: 168, label: '7 days' },
];

/** The Gemini panel's time window: arrow keys move between the choices. */
export function GeminiWindowPicker({
  value,
  onChange,
}: {
  value: GeminiWindow;
  onChange: (hours: GeminiWindow) => void;
}) {
  return (
    <ToggleGroup.Root
      type="single"
      value={String(value)}
      onValueChange={(next) => {
        const choice = WINDOWS.find((window) => String(window.hours) === next);
        if (choice) onChange(choice.hours);
      }}
      aria-label="Time window"
      className="inline-flex rounded-md border bg-muted/50 p-0.5"
    >
      {WINDOWS.map((window) => (
        <ToggleGroup.Item
          key={window.hours}
          value={String(window.hours)}
          className={cn(
            'rounded px-2.5 py-1 text-xs font-medium text-muted-foreground transition-colors',
            'hover:text-foreground data-[state=on]:bg-accent data-[state=on]:text-accent-foreground data-[state=on]:shadow-sm',
          )}
        >
          {window.label}
        </ToggleGroup.Item>
      ))}
    </ToggleGroup.Root>
  );
}
