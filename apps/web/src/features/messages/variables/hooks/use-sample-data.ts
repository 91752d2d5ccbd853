import { useMemo, useState } from 'react';
import { useVariables } from '../api/list-variables';
import { buildSampleData, formatSampleData, parseSampleData, type SampleData } from '../lib/sample-data';

/**
 * Editable sample JSON, built from the variables' example values. An edit that is not a JSON object is
 * kept in the text but ignored for the data (spec section 2: invalid JSON edits are ignored).
 */
export function useSampleData() {
  const variables = useVariables();
  const initial = useMemo(() => buildSampleData(variables.data ?? []), [variables.data]);
  const [edit, setEdit] = useState<{ text: string; data: SampleData } | null>(null);

  const setText = (text: string) =>
    setEdit((previous) => ({ text, data: parseSampleData(text) ?? previous?.data ?? initial }));

  return {
    text: edit?.text ?? formatSampleData(initial),
    data: edit?.data ?? initial,
    setText,
    invalid: edit !== null && parseSampleData(edit.text) === null,
    loading: variables.isPending,
  };
}

export type SampleDataState = ReturnType<typeof useSampleData>;
