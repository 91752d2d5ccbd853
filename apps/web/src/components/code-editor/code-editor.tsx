import { lazy, Suspense } from 'react';
import { CodeEditorLoading } from './code-editor-loading';

export type CodeEditorLanguage = 'json' | 'plaintext' | 'handlebars';

/** A problem marked at its spot in the text (1-based line and column), as an underline with its message. */
export interface CodeEditorMarker {
  line: number;
  column: number;
  message: string;
  severity: 'error' | 'warning';
}

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  language: CodeEditorLanguage;
  /** Any CSS height; 400px by default (spec section 9). */
  height?: string;
  'aria-label': string;
  /** Ties the editor to a hint or a validation message outside it. */
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  /** Shown, selectable and scrollable, but not editable (a reader without the right to change it). */
  readOnly?: boolean;
  /** Problems to mark where they are. */
  markers?: readonly CodeEditorMarker[];
}

// Monaco is megabytes of code: it is fetched the first time an editor is shown, never with the screen.
const MonacoCodeEditor = lazy(() =>
  import('./monaco-code-editor').then((m) => ({ default: m.MonacoCodeEditor })),
);

/**
 * A code editor (Monaco) with syntax highlighting, bundled with the app and loaded lazily, so it works
 * offline and under the strict Content-Security-Policy. Settings follow spec section 9.
 */
export function CodeEditor({ height = '400px', ...props }: CodeEditorProps) {
  return (
    <Suspense fallback={<CodeEditorLoading height={height} />}>
      <MonacoCodeEditor height={height} {...props} />
      {!props.readOnly && (
        <p className="mt-1 text-xs text-muted-foreground">
          Tab indents. Press Ctrl+M (Ctrl+Shift+M on macOS) to make Tab leave the editor instead.
        </p>
      )}
    </Suspense>
  );
}
