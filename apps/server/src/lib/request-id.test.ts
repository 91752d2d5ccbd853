import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestIdGenerator } from './request-id.js';

const request = (id?: string) =>
  ({ headers: id === undefined ? {} : { 'x-request-id': id } }) as IncomingMessage;

describe('requestIdGenerator', () => {
  it('keeps a well-formed id from the client', () => {
    const next = requestIdGenerator();
    expect(next(request('trace-123'))).toBe('trace-123');
    expect(next(request('a.b_c-9'))).toBe('a.b_c-9');
  });

  it('replaces a missing, malformed or overlong id with its own', () => {
    const next = requestIdGenerator();
    for (const given of [undefined, '', 'bad id\n', 'x'.repeat(101), 'semi;colon']) {
      expect(next(request(given))).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    }
  });

  it('never repeats an id, within a process or across processes', () => {
    const first = requestIdGenerator();
    const ids = new Set(Array.from({ length: 10_000 }, () => first(request())));
    expect(ids.size).toBe(10_000);
    const second = requestIdGenerator();
    expect(second(request())).not.toBe(first(request()));
    expect(second(request()).slice(0, 12)).not.toBe(first(request()).slice(0, 12));
  });
});
