import type { CodeEditorProps } from './code-editor';

/**
 * A plain textarea in place of the Monaco editor, for unit tests in jsdom (where Monaco cannot run):
 * `vi.mock('@/components/code-editor/code-editor', () => import('@/components/code-editor/code-editor.mock'))`.
 */
export function CodeEditor({
  value,
  onChange,
  language,
  height = '400px',
  readOnly,
  markers: _markers,
  ...aria
}: CodeEditorProps) {
  return (
    <textarea
      value={value}
      readOnly={readOnly}
      onChange={(event) => onChange(event.target.value)}
      data-language={language}
      style={{ height }}
      {...aria}
    />
  );
}
