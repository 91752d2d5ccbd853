import { ToggleGroup } from 'radix-ui';
import { useId } from 'react';
import { CodeEditor } from '@/components/code-editor/code-editor';
import { cn } from '@/lib/cn';
import type { ContentMode } from '../lib/content';

/** Editable with its handlers, or shown read-only (a reader's view) with neither. */
type ContentFieldProps = { mode: ContentMode; value: string; error?: string } & (
  | { readOnly?: false; onModeChange: (mode: ContentMode) => void; onChange: (value: string) => void }
  | { readOnly: true; onModeChange?: never; onChange?: never }
);

const MODES: ReadonlyArray<{ value: ContentMode; label: string }> = [
  { value: 'json', label: 'JSON' },
  { value: 'text', label: 'Text' },
];

const modeClass = cn(
  'rounded px-2.5 py-1 text-xs font-medium text-muted-foreground enabled:hover:text-foreground',
  'data-[state=on]:bg-primary data-[state=on]:text-primary-foreground disabled:cursor-not-allowed',
);

/** A read-only editor never changes its text, so there is nothing to hear. */
const ignoreEdits = () => undefined;

/** Content with its mode (spec section 4): a JSON object, highlighted and checked, or plain text. */
export function ContentField({ mode, value, error, readOnly, onModeChange, onChange }: ContentFieldProps) {
  const errorId = useId();
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium">Content</span>
        <ToggleGroup.Root
          type="single"
          value={mode}
          // Radix reports '' when the pressed item is pressed again; a mode is always chosen.
          onValueChange={(next) => next && onModeChange?.(next as ContentMode)}
          disabled={readOnly}
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
        onChange={onChange ?? ignoreEdits}
        readOnly={readOnly}
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
