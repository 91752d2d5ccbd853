import type { ExampleData } from '@lumi/contract';

export type SampleData = ExampleData;

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
