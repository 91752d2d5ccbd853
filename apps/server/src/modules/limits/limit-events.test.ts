import { describe, expect, it } from 'vitest';
import { LimitEvents, type PartOutcome, type StoreLimitEvents } from './limit-events.js';

/** (docs/operators/limits.md, "What counts") What the allowance counted and has not stored yet. */

const chat = (subject: string) =>
  ({ kind: 'chat', subject, grain: 'hour', bucket: '2026-11-20T12:00:00.000Z' }) as const;
const key = chat('-7');

/** A store whose parts end when the test says, each as stored, held for the next or failed. */
function heldStore() {
  const writes: { rows: number; last: boolean; end: (failed?: Error, outcome?: PartOutcome) => void }[] = [];
  const store: StoreLimitEvents = ({ grants, last }) =>
    new Promise((resolve, reject) => {
      writes.push({
        rows: grants.reduce((sum, row) => sum + row.granted, 0),
        last,
        end: (failed, outcome = {}) => (failed ? reject(failed) : resolve(outcome)),
      });
    });
  return { store, writes };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('LimitEvents', () => {
  it('counts a grant as pending while it is buffered and until its part is stored, and says when it is', async () => {
    const { store, writes } = heldStore();
    const events = new LimitEvents(store, 60_000);
    let told = 0;
    events.onPartStored(() => (told += 1));
    events.grant(key);
    events.grant(key, 2);
    expect(events.pending(key)).toBe(3);
    expect(events.pending(chat('-8'))).toBe(0);
    const flushed = events.flush();
    await turn();
    events.grant(key);
    // In the write and in the next buffer.
    expect(writes.map((w) => w.rows)).toEqual([3]);
    expect(events.pending(key)).toBe(4);
    expect([told, events.storedParts]).toEqual([0, 0]);
    writes[0]!.end();
    await flushed;
    expect(events.pending(key)).toBe(1);
    expect([told, events.storedParts]).toEqual([1, 1]);
  });

  it('lets the rows of each stored part go while the rest of the write still counts', async () => {
    const { store, writes } = heldStore();
    const events = new LimitEvents(store, 60_000);
    for (let i = 0; i < 250; i++) events.grant(chat(String(-i - 1)));
    const flushed = events.flush();
    await turn();
    writes[0]!.end();
    await turn();
    await turn();
    expect(writes.map((w) => w.rows)).toEqual([200, 50]);
    expect([events.pending(chat('-1')), events.pending(chat('-250'))]).toEqual([0, 1]);
    expect(events.storedParts).toBe(1);
    writes[1]!.end();
    await flushed;
    expect(events.pending(chat('-250'))).toBe(0);
    expect(events.storedParts).toBe(2);
  });

  it('counts the grants of a failed write once, back in the buffer', async () => {
    const { store, writes } = heldStore();
    const events = new LimitEvents(store, 60_000);
    events.grant(key, 2);
    const flushed = events.flush();
    await turn();
    writes[0]!.end(new Error('the database is gone'));
    await expect(flushed).rejects.toThrow('the database is gone');
    expect([events.pending(key), events.storedParts]).toEqual([2, 0]);
    const again = events.flush();
    await turn();
    expect(writes.map((w) => w.rows)).toEqual([2, 2]);
    writes[1]!.end();
    await again;
    expect(events.pending(key)).toBe(0);
  });

  it('lets the rows of parts the store held go after the part that stored them, a part a turn, and counts them once if it fails', async () => {
    const { store, writes } = heldStore();
    const events = new LimitEvents(store, 60_000);
    const told: [number, number | undefined][] = [];
    events.onPartStored((rows, number) => told.push([rows.length, number]));
    for (let i = 0; i < 450; i++) events.grant(chat(String(-i - 1)));
    let flushed = events.flush();
    await turn();
    writes[0]!.end(undefined, 'held');
    await turn();
    await turn();
    // Held, not stored: still pending, nothing told.
    expect([events.pending(chat('-1')), events.storedParts, told]).toEqual([1, 0, []]);
    writes[1]!.end(undefined, 'held');
    await turn();
    await turn();
    expect(writes.map((w) => [w.rows, w.last])).toEqual([
      [200, false],
      [200, false],
      [50, true],
    ]);
    writes[2]!.end(new Error('the database is gone'));
    await expect(flushed).rejects.toThrow('the database is gone');
    // The held parts failed with the last: every row counts once, back in the buffer.
    expect([events.pending(chat('-1')), events.pending(chat('-450')), told]).toEqual([1, 1, []]);
    flushed = events.flush();
    for (const at of [3, 4]) {
      await turn();
      await turn();
      writes[at]!.end(undefined, 'held');
    }
    await turn();
    await turn();
    writes[5]!.end(undefined, { number: 7 });
    await turn();
    // A part let go a turn, each with its write's number.
    expect([events.pending(chat('-1')), events.pending(chat('-450')), told]).toEqual([0, 1, [[200, 7]]]);
    await flushed;
    expect(writes.slice(3).map((w) => w.rows)).toEqual([200, 200, 50]);
    expect([events.pending(chat('-1')), events.pending(chat('-450'))]).toEqual([0, 0]);
    expect(told).toEqual([
      [200, 7],
      [200, 7],
      [50, 7],
    ]);
    expect(events.storedParts).toBe(3);
  });
});
