import type { ExampleData } from '@lumi/contract';

export type SampleData = ExampleData;

export function formatSampleData(data: SampleData): string {
  return JSON.stringify(data, null, 2);
}

/** The data in an edit of the sample JSON, or null when it is not (yet) a JSON object. */
export function parseSampleData(text: string): SampleData | null {
  return jsonProblem(text) === null ? (JSON.parse(text) as SampleData) : null;
}

/** Why `text` is not a JSON object, in words; null when it is one. */
export function jsonProblem(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `Not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? null
    : 'The sample data must be a JSON object, such as { "token_name": "Pepe" }';
}
