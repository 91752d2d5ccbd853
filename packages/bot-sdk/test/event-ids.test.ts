import { describe, expect, it } from 'vitest';
import { timeOrderedId } from '../src/events.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the id an event gets when the bot gives none', () => {
  it('is a UUIDv7 whose first 48 bits are the time in milliseconds', () => {
    const at = Date.parse('2026-11-30T06:00:00.000Z');
    const id = timeOrderedId(at);
    expect(id).toMatch(UUID_V7);
    expect(parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts after the ids of earlier milliseconds, and never repeats', () => {
    const at = Date.parse('2026-11-30T06:00:00.000Z');
    const ids = Array.from({ length: 1_000 }, (_, i) => timeOrderedId(at + i));
    expect([...ids].sort()).toEqual(ids);
    const sameMillisecond = Array.from({ length: 10_000 }, () => timeOrderedId(at));
    expect(new Set(sameMillisecond).size).toBe(10_000);
  });
});
