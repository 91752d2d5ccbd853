import Editor, { type Monaco, type OnMount } from '@monaco-editor/react';
import { useEffect, useState } from 'react';
import { cn } from '@/lib/cn';
import type { CodeEditorProps } from './code-editor';
import { CodeEditorLoading } from './code-editor-loading';
import './monaco-setup';

type MonacoCodeEditorProps = CodeEditorProps & { height: string };

/** Spec section 9: font size 14, tab size 2 with spaces, word wrap, no minimap, dark theme. */
const OPTIONS = {
  fontSize: 14,
  tabSize: 2,
  insertSpaces: true,
  detectIndentation: false,
  wordWrap: 'on',
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  automaticLayout: true,
  fixedOverflowWidgets: true,
} as const;

export function MonacoCodeEditor({
  value,
  onChange,
  language,
  height,
  'aria-label': ariaLabel,
  'aria-describedby': describedBy,
  'aria-invalid': invalid,
  readOnly = false,
  markers,
}: MonacoCodeEditorProps) {
  const [input, setInput] = useState<HTMLTextAreaElement | null>(null);
  const [mounted, setMounted] = useState<{ editor: Parameters<OnMount>[0]; monaco: Monaco } | null>(null);

  const handleMount: OnMount = (editor, monaco) => {
    setInput(editor.getDomNode()?.querySelector('textarea') ?? null);
    setMounted({ editor, monaco });
  };

  // Each problem underlines the word at its spot (or the character there), with its message on hover.
  useEffect(() => {
    const model = mounted?.editor.getModel();
    if (!mounted || !model) return;
    const { monaco } = mounted;
    monaco.editor.setModelMarkers(
      model,
      'lumi',
      (markers ?? []).map(({ line, column, message, severity }) => {
        const word = model.getWordAtPosition({ lineNumber: line, column });
        return {
          startLineNumber: line,
          startColumn: word?.startColumn ?? column,
          endLineNumber: line,
          endColumn: word?.endColumn ?? column + 1,
          message,
          severity: severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
        };
      }),
    );
  }, [mounted, markers]);

  // Monaco labels its own input; the message and the invalid state are tied to that input here.
  useEffect(() => {
    if (!input) return;
    if (describedBy) input.setAttribute('aria-describedby', describedBy);
    else input.removeAttribute('aria-describedby');
    if (invalid) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }, [input, describedBy, invalid]);

  return (
    <div className={cn('overflow-hidden rounded-md border', invalid ? 'border-destructive' : 'border-input')}>
      <Editor
        value={value}
        language={language}
        theme="vs-dark"
        height={height}
        loading={<CodeEditorLoading height={height} />}
        options={{ ...OPTIONS, ariaLabel, readOnly, domReadOnly: readOnly }}
        onChange={(next) => onChange(next ?? '')}
        onMount={handleMount}
      />
    </div>
  );
}
