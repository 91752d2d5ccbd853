import { describe, expect, it } from 'vitest';
import { EventBuffer, type Denial } from './event-buffer.js';
import type { GrantKey } from './limit-events.js';

/** (docs/operators/limits.md, "What counts") One buffer of the allowance's counts and denials, as numbers. */

const HOUR = '2026-11-20T12:00:00.000Z';
const NEXT_HOUR = '2026-11-20T13:00:00.000Z';
const MINUTE = '2026-11-20T12:59:00.000Z';
const key = (kind: GrantKey['kind'], subject: string, grain: GrantKey['grain'] = 'hour', bucket = HOUR) => ({
  kind,
  subject,
  grain,
  bucket,
});

/** Subjects kept as numbers and by name: ids as JavaScript writes them, and everything else. */
const SUBJECTS: [GrantKey['kind'], string][] = [
  ['chat', '-1001234567890'],
  ['chat', '0'],
  ['chat', '-0'],
  ['chat', '007'],
  ['chat', '12345678901234567890'],
  ['user', '12'],
  ['user', '999999999999999'],
  ['feature', '12'],
  ['feature', 'summarize'],
  ['feature', 'résumé ✨'],
];

describe('EventBuffer', () => {
  it('gives back every counter as it was counted, in the order it came, each counter once', () => {
    const buffer = new EventBuffer();
    const expected = new Map<string, { key: GrantKey; granted: number }>();
    let n = 0;
    for (const bucket of [HOUR, NEXT_HOUR]) {
      for (const grain of ['minute', 'hour'] as const) {
        for (const [kind, subject] of SUBJECTS) {
          const one = key(kind, subject, grain, grain === 'minute' ? MINUTE : bucket);
          const id = JSON.stringify(one);
          const count = (n++ % 3) - 1 || 2;
          buffer.grant(one, count);
          const known = expected.get(id);
          if (known) known.granted += count;
          else expected.set(id, { key: one, granted: count });
        }
      }
    }
    const rows = buffer.grantRows(0, buffer.grantCount);
    expect(rows).toEqual([...expected.values()].map(({ key, granted }) => ({ ...key, granted })));
    for (const { key, granted } of expected.values()) expect(buffer.granted(key)).toBe(granted);
    // The same subject of another kind, or in another bucket, is another counter.
    expect(buffer.granted(key('user', '0'))).toBe(0);
    expect(buffer.granted(key('chat', '12'))).toBe(0);
    expect(buffer.granted(key('chat', '0', 'hour', '2026-11-20T14:00:00.000Z'))).toBe(0);
    expect(buffer.granted(key('chat', '0', 'minute', HOUR))).toBe(0);
  });

  it('grows past its first sizes', () => {
    const buffer = new EventBuffer();
    for (let i = 0; i < 5_000; i++) buffer.grant(key('chat', String(-i)), 1);
    for (let i = 0; i < 5_000; i++) buffer.grant(key('chat', String(-i), 'minute', MINUTE), 2);
    expect(buffer.grantCount).toBe(10_000);
    expect(buffer.granted(key('chat', '-4999'))).toBe(1);
    expect(buffer.granted(key('chat', '-4999', 'minute', MINUTE))).toBe(2);
    expect(buffer.grantRows(9_999, 10_000)).toEqual([
      { ...key('chat', '-4999', 'minute', MINUTE), granted: 2 },
    ]);
  });

  it('lets the counters stored so far go and still counts the rest', () => {
    const buffer = new EventBuffer();
    buffer.grant(key('chat', '-1'), 1);
    buffer.grant(key('chat', '-2'), 1);
    buffer.letGo(1);
    expect([buffer.granted(key('chat', '-1')), buffer.granted(key('chat', '-2'))]).toEqual([0, 1]);
    expect(buffer.empty).toBe(false);
  });

  it('gives back denials as limit_denials stores them', () => {
    const buffer = new EventBuffer();
    const denials: Denial[] = [
      {
        at: Date.parse(HOUR),
        chat_id: '-7',
        user_id: '42',
        feature: 'chat',
        reason: 'limit_reached',
        limit_id: 3,
      },
      {
        at: Date.parse(HOUR) + 1,
        chat_id: null,
        user_id: '007',
        feature: null,
        reason: 'banned',
        limit_id: null,
      },
      {
        at: Date.parse(HOUR) + 2,
        chat_id: '-7',
        user_id: null,
        feature: null,
        reason: 'over_soft_limit',
        limit_id: 0,
      },
    ];
    for (const denial of denials) buffer.deny(denial);
    expect(buffer.denialCount).toBe(3);
    expect(buffer.denialRows(0, 3)).toEqual(
      denials.map(({ at, ...rest }) => ({ ts: new Date(at).toISOString(), ...rest })),
    );
    expect(buffer.denialRows(2, 3)).toHaveLength(1);
    // Denials are not grants.
    expect(buffer.grantCount).toBe(0);
    expect(buffer.granted(key('chat', '-7'))).toBe(0);
  });

  it('moves what a failed write did not store into another buffer, adding to what is there', () => {
    const from = new EventBuffer();
    from.grant(key('chat', '-1'), 1);
    from.grant(key('feature', 'summarize'), 2);
    from.deny({ at: 1, chat_id: '-1', user_id: null, feature: null, reason: 'banned', limit_id: null });
    from.deny({ at: 2, chat_id: null, user_id: 'x', feature: 'f', reason: 'limit_reached', limit_id: 5 });
    const into = new EventBuffer();
    into.grant(key('feature', 'summarize'), 3);
    from.moveInto(into, 1, 1);
    expect(into.grantRows(0, into.grantCount)).toEqual([{ ...key('feature', 'summarize'), granted: 5 }]);
    expect(into.denialRows(0, into.denialCount)).toEqual(from.denialRows(1, 2));
  });

  it('is empty until something is counted', () => {
    const buffer = new EventBuffer();
    expect(buffer.empty).toBe(true);
    buffer.deny({ at: 0, chat_id: null, user_id: null, feature: null, reason: 'banned', limit_id: null });
    expect(buffer.empty).toBe(false);
  });
});
