import { ToggleGroup } from 'radix-ui';
import { useId } from 'react';
import { CodeEditor } from '@/components/code-editor/code-editor';
import { cn } from '@/lib/cn';
import type { ContentMode } from '../lib/content';

interface ContentFieldProps {
  mode: ContentMode;
  onModeChange: (mode: ContentMode) => void;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

const MODES: ReadonlyArray<{ value: ContentMode; label: string }> = [
  { value: 'json', label: 'JSON' },
  { value: 'text', label: 'Text' },
];

const modeClass = cn(
  'rounded px-2.5 py-1 text-xs font-medium text-muted-foreground hover:text-foreground',
  'data-[state=on]:bg-primary data-[state=on]:text-primary-foreground',
);

/** Content with its mode (spec section 4): a JSON object, highlighted and checked, or plain text. */
export function ContentField({ mode, onModeChange, value, onChange, error }: ContentFieldProps) {
  const errorId = useId();
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium">Content</span>
        <ToggleGroup.Root
          type="single"
          value={mode}
          // Radix reports '' when the pressed item is pressed again; a mode is always chosen.
          onValueChange={(next) => next && onModeChange(next as ContentMode)}
          aria-label="Content mode"
          className="inline-flex rounded-md border p-0.5"
        >
          {MODES.map(({ value: itemValue, label }) => (
            <ToggleGroup.Item key={itemValue} value={itemValue} className={modeClass}>
              {label}
            </ToggleGroup.Item>
          ))}
        </ToggleGroup.Root>
      </div>
      <CodeEditor
        value={value}
        onChange={onChange}
        language={mode === 'json' ? 'json' : 'plaintext'}
        height="280px"
        aria-label={mode === 'json' ? 'Content (JSON)' : 'Content (text)'}
        aria-describedby={error ? errorId : undefined}
        aria-invalid={Boolean(error)}
      />
      {error && (
        <p id={errorId} className="text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
