import { buildExampleData, variablesUsedBy } from '@lumi/contract';
import { useMemo, useState } from 'react';
import { useVariables } from '../api/list-variables';
import { formatSampleData, jsonProblem, parseSampleData, type SampleData } from '../lib/sample-data';

/**
 * Editable sample JSON, built from the example values of the variables `content` uses (and only those), so
 * it follows the content until the operator edits it. An edit that is not a JSON object is kept in the
 * text: the preview goes on with the last valid data (spec section 2: invalid JSON edits are ignored),
 * while sending is held until it parses (`invalid`, with the parser's reason in `problem`).
 */
export function useSampleData(content: string) {
  const variables = useVariables();
  const initial = useMemo(
    () => buildExampleData(variablesUsedBy(content, variables.data ?? [])),
    [content, variables.data],
  );
  const [edit, setEdit] = useState<{ text: string; data: SampleData } | null>(null);

  const setText = (text: string) =>
    setEdit((previous) => ({ text, data: parseSampleData(text) ?? previous?.data ?? initial }));

  const problem = edit === null ? null : jsonProblem(edit.text);
  return {
    text: edit?.text ?? formatSampleData(initial),
    data: edit?.data ?? initial,
    setText,
    invalid: problem !== null,
    problem,
    loading: variables.isPending,
  };
}

export type SampleDataState = ReturnType<typeof useSampleData>;
