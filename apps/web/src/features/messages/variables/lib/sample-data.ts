import type { Variable } from '@lumi/contract';

export type SampleData = Record<string, unknown>;

/** A variable's example value as the JSON type its data type names (examples are stored as text). */
function exampleValue({ data_type: type, example_value: raw }: Variable): unknown {
  if (raw === null) return undefined;
  switch (type) {
    case 'number':
    case 'integer': {
      const value = Number(raw);
      return raw.trim() !== '' && Number.isFinite(value) ? value : raw;
    }
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    case 'array':
    case 'object':
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        return raw;
      }
    default:
      return raw;
  }
}

/** The Preview and Test panels' sample data: every catalogued variable that has an example value. */
export function buildSampleData(variables: readonly Variable[]): SampleData {
  const data: SampleData = {};
  for (const variable of variables) {
    const value = exampleValue(variable);
    if (value !== undefined) data[variable.variable_name] = value;
  }
  return data;
}

export function formatSampleData(data: SampleData): string {
  return JSON.stringify(data, null, 2);
}

/** The data in an edit of the sample JSON, or null when it is not (yet) a JSON object. */
export function parseSampleData(text: string): SampleData | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as SampleData)
      : null;
  } catch {
    return null;
  }
}
