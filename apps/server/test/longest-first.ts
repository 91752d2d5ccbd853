import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first: the fuzz file alone takes about as long as a third of the
 * rest together. Vitest otherwise orders a fresh run (no timings cached, as in CI) by file size, which
 * started it last, so one worker ran it alone for minutes after the other had finished.
 */
const LONGEST = [
  'test/fuzz.test.ts',
  'test/ingest-crash.test.ts',
  'test/deliveries.test.ts',
  'test/telemetry-ingest.test.ts',
  'test/deliveries-crash.test.ts',
];

/** Vitest's order, with the LONGEST files moved to the front (docs/architecture.md, "How to test"). */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const i = LONGEST.findIndex((name) => file.moduleId.endsWith(name));
      return i < 0 ? LONGEST.length : i;
    };
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
