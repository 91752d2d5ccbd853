import safeRegex from 'safe-regex2';

// A key's redaction patterns (docs/operators/metrics.md, "Content of calls"), checked when the key is saved:
// ingestion compiles them with the same flags (modules/ingestion/content-capture.ts).

export const REDACTION_FLAGS = 'gu';

/** Why a redaction pattern cannot be used, or null when it can. */
export function redactionPatternProblem(pattern: string): string | null {
  try {
    new RegExp(pattern, REDACTION_FLAGS);
  } catch (error) {
    return `'${pattern}' is not a regular expression: ${(error as Error).message}`;
  }
  // A pattern with nested repetition can take exponential time on some text (ReDoS); ingestion runs every
  // pattern over every call, so such a pattern is refused.
  if (!safeRegex(pattern)) {
    return `'${pattern}' nests one repetition in another, as (a+)+ does, which can take very long on some text; write it without the nesting`;
  }
  return null;
}
