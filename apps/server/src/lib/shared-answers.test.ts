import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deepFreeze, encodeFrozenOnce } from './shared-answers.js';

describe('deepFreeze', () => {
  it('freezes an answer and everything in it', () => {
    const answer = deepFreeze({ totals: { tokens: 1 }, rows: [{ cost: 2 }] });
    expect(Object.isFrozen(answer)).toBe(true);
    expect(Object.isFrozen(answer.totals)).toBe(true);
    expect(Object.isFrozen(answer.rows)).toBe(true);
    expect(Object.isFrozen(answer.rows[0])).toBe(true);
    expect(() => {
      (answer.rows[0] as { cost: number }).cost = 3;
    }).toThrow(TypeError);
    expect(deepFreeze(null)).toBeNull();
    expect(deepFreeze(7)).toBe(7);
  });
});

describe('encodeFrozenOnce', () => {
  const schema = z.object({ n: z.number(), name: z.string().optional() });
  let encodings = 0;
  const counting: typeof serializerCompiler = (route) => {
    const serialize = serializerCompiler(route);
    return (data: unknown) => {
      encodings += 1;
      return serialize(data);
    };
  };
  const serialize = encodeFrozenOnce(counting)({ schema, method: 'GET', url: '/x', httpStatus: '200' });

  it('encodes a frozen answer once and reuses its JSON, as UTF-8 bytes', () => {
    encodings = 0;
    const shared = deepFreeze({ n: 1, name: 'é \u{1F600}' });
    const first: unknown = serialize(shared);
    expect(Buffer.isBuffer(first)).toBe(true);
    expect(String(first)).toBe('{"n":1,"name":"é \u{1F600}"}');
    expect(serialize(shared)).toBe(first);
    expect(encodings).toBe(1);
  });

  it('encodes every other answer each time, and still checks it against the schema', () => {
    encodings = 0;
    const answer = { n: 1 };
    serialize(answer);
    answer.n = 2;
    expect(serialize(answer)).toBe('{"n":2}');
    expect(encodings).toBe(2);
    expect(() => serialize({ n: 'one' })).toThrow();
  });
});
