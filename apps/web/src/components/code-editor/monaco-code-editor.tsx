import Editor, { type OnMount } from '@monaco-editor/react';
import { useEffect, useState } from 'react';
import { cn } from '@/lib/cn';
import type { CodeEditorProps } from './code-editor';
import { CodeEditorLoading } from './code-editor-loading';
import './monaco-setup';

type MonacoCodeEditorProps = CodeEditorProps & { height: string };

/** Spec section 9 and the templates issue: font size 14, tab size 2 with spaces, word wrap, no minimap, dark theme. */
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
}: MonacoCodeEditorProps) {
  const [input, setInput] = useState<HTMLTextAreaElement | null>(null);

  const handleMount: OnMount = (editor) => {
    setInput(editor.getDomNode()?.querySelector('textarea') ?? null);
  };

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
