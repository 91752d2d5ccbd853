import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from './helper.js';
import {
  fingerprint,
  LEAK,
  readOperations,
  renewKey,
  seedRecords,
  startHarness,
  type Harness,
  type Known,
  type Operation,
} from './fuzz/harness.js';
import {
  encodeSegment,
  hostileBody,
  hostileSegment,
  hostileString,
  hostileValue,
  taint,
} from './fuzz/hostile-values.js';
import { pathsOf, replaceAt, taintStrings, validish, type JsonSchema } from './fuzz/schema-arbitrary.js';

/**
 * The permanent attack (docs/operators/security.md): every operation of the OpenAPI document, so a new route is
 * covered without being listed here, gets requests built from its own schemas with hostile values put in
 * (malformed JSON, wrong types, oversized strings, control, RTL and zero-width characters, deep nesting,
 * negative, huge and fractional numbers, odd ids, injection strings), as an authorised caller, on SQLite
 * and on PostgreSQL. It fails on any 5xx, on an error answer that shows a stack trace or SQL, and on a
 * refused write that changed the database anyway.
 *
 * fast-check runs FUZZ_RUNS requests per operation (default 25) from FUZZ_SEED (fixed, so a failure
 * comes back the same way); `npm run fuzz` is the longer run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);

const { operations, components } = await readOperations();

interface FuzzRequest {
  url: string;
  payload?: string | Buffer;
  contentType?: string;
  remoteAddress: string;
}

function requestFor(op: Operation, known: Known): fc.Arbitrary<FuzzRequest> {
  const pathParams = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const pathArb = fc
    .tuple(
      ...pathParams.map((name) =>
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...(known[name] ?? ['1'])) },
          {
            weight: 1,
            arbitrary: fc
              .tuple(fc.constantFrom(...(known[name] ?? ['1'])), taint)
              .map(([value, suffix]) => encodeSegment(value + suffix)),
          },
          { weight: 1, arbitrary: hostileSegment },
        ),
      ),
    )
    .map((values) => pathParams.reduce((path, name, i) => path.replace(`{${name}}`, values[i]!), op.path));

  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const queryValue = (schema: JsonSchema | undefined) =>
    validish(schema, components).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  const queryArb = fc
    .tuple(
      ...queryParams.map((p) =>
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(undefined) },
          { weight: 3, arbitrary: queryValue(p.schema) },
          {
            weight: 2,
            arbitrary: fc.tuple(queryValue(p.schema), taint).map(([value, suffix]) => value + suffix),
          },
          { weight: 2, arbitrary: hostileString },
        ),
      ),
      fc.option(fc.tuple(hostileString, hostileString), { nil: undefined, freq: 8 }),
    )
    .map((values) => {
      const search = new URLSearchParams();
      queryParams.forEach((p, i) => {
        const value = values[i] as string | undefined;
        if (value !== undefined) search.append(p.name, value.slice(0, 2000));
      });
      const extra = values[queryParams.length] as [string, string] | undefined;
      if (extra) search.append(extra[0].slice(0, 100) || 'x', extra[1].slice(0, 2000));
      const text = search.toString();
      return text ? `?${text}` : '';
    });

  const json = (value: unknown) => ({
    payload: JSON.stringify(value) ?? 'null',
    contentType: 'application/json',
  });
  const valid = validish(op.body ?? { type: 'object' }, components);
  const mutated = fc
    .tuple(valid, fc.nat(), fc.oneof(hostileValue, fc.constant(undefined)), fc.boolean())
    .map(([value, pick, hostile, addKey]) => {
      if (addKey && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        return json({ ...value, ['__proto__']: hostile, extra: hostile });
      }
      const paths = pathsOf(value);
      return json(replaceAt(value, paths[pick % paths.length]!, hostile) ?? null);
    });
  const hasBody = op.method !== 'GET' && op.method !== 'HEAD';
  const bodyArb: fc.Arbitrary<{ payload?: string | Buffer; contentType?: string }> = hasBody
    ? fc.oneof(
        { weight: 5, arbitrary: mutated },
        {
          weight: 4,
          arbitrary: fc.tuple(valid, taint).map(([value, suffix]) => json(taintStrings(value, suffix))),
        },
        { weight: 2, arbitrary: valid.map(json) },
        {
          weight: 2,
          arbitrary: hostileBody.map((b) => ({ payload: b.payload, contentType: b.contentType })),
        },
      )
    : fc.constant({});

  return fc.tuple(pathArb, queryArb, bodyArb, fc.ipV4()).map(([path, query, body, remoteAddress]) => ({
    url: `${path}${query}`,
    ...body,
    remoteAddress,
  }));
}

function describeRequest(op: Operation, req: FuzzRequest) {
  const body = req.payload === undefined ? '' : String(req.payload).slice(0, 300);
  return `${op.method} ${req.url.slice(0, 300)} [${req.contentType ?? 'no content type'}] ${body}`;
}

/** Answers per status class and operation, printed at the end: a fuzz run that never got past the
 * validator would show only 4xx for every writing operation. */
const seen = new Map<string, Record<string, number>>();
const answersByDialect = new Map<string, Record<string, Record<string, number>>>();

async function attack(h: Harness, op: Operation, req: FuzzRequest): Promise<void> {
  if (op.permission === 'api-key') {
    const probe = await h.t.app.inject({
      method: 'GET',
      url: '/api/bot/config',
      headers: { authorization: `Bearer ${h.key}` },
    });
    if (probe.statusCode === 401) await renewKey(h);
  }
  const auth =
    op.permission === 'public'
      ? {}
      : { authorization: op.permission === 'api-key' ? `Bearer ${h.key}` : h.admin.auth.authorization };
  const writes = op.method !== 'GET' && op.method !== 'HEAD';
  const before = writes ? await fingerprint(h) : null;
  const res: LightMyRequestResponse = await h.t.app.inject({
    method: op.method as 'GET',
    url: req.url,
    headers: { ...auth, ...(req.contentType && { 'content-type': req.contentType }) },
    ...(req.payload !== undefined && { payload: req.payload }),
    remoteAddress: req.remoteAddress,
  });
  const what = `${describeRequest(op, req)} → ${res.statusCode} ${res.body.slice(0, 500)}`;
  const counts = seen.get(`${op.method} ${op.path}`) ?? {};
  counts[`${String(res.statusCode)[0]}xx`] = (counts[`${String(res.statusCode)[0]}xx`] ?? 0) + 1;
  seen.set(`${op.method} ${op.path}`, counts);
  expect(res.statusCode, what).toBeLessThan(500);
  if (res.statusCode >= 400 && String(res.headers['content-type']).startsWith('application/json')) {
    const body = res.json<{ detail?: unknown; code?: unknown }>();
    expect(typeof body.detail, what).toBe('string');
    expect(typeof body.code, what).toBe('string');
    expect(LEAK.exec(res.body)?.[0] ?? null, what).toBeNull();
  }
  if (before && res.statusCode >= 400)
    expect(await fingerprint(h), `a refused write changed data: ${what}`).toEqual(before);
  if (res.statusCode === 401 && op.permission !== 'public' && op.permission !== 'api-key') {
    // Only a fuzzed request that ended this very session could do this; carry on signed in again.
    h.admin = await h.t.loginAdmin();
  }
}

describe.each(dialects)('fuzzing every operation of the OpenAPI document on %s', (dialect) => {
  let h: Awaited<ReturnType<typeof startHarness>>;
  beforeAll(async () => {
    h = await startHarness(dialect);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    const totals: Record<string, number> = {};
    for (const counts of seen.values()) {
      for (const [status, n] of Object.entries(counts)) totals[status] = (totals[status] ?? 0) + n;
    }
    answersByDialect.set(dialect, Object.fromEntries(seen));
    const neverAccepted = [...seen].filter(([, counts]) => !counts['2xx']).map(([op]) => op);
    process.stdout.write(
      `fuzz on ${dialect}: ${JSON.stringify(totals)}; never answered 2xx: ${neverAccepted.join(', ') || 'none'}\n`,
    );
    seen.clear();
  });

  it('covers the whole document', () => {
    expect(operations.length).toBeGreaterThan(60);
  });

  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s',
    async (_, op) => {
      await seedRecords(h);
      await fc.assert(
        fc.asyncProperty(requestFor(op, h.known), (req) => attack(h, op, req)),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    },
    300_000,
  );
});

describe('both databases', () => {
  it.runIf(dialects.length === 2)('answer the same requests with the same kinds of status', () => {
    expect(answersByDialect.get('postgres')).toEqual(answersByDialect.get('sqlite'));
  });
});
