import { describe, expect, it } from 'vitest';
import { LimitEvents, type StoreLimitEvents } from './limit-events.js';

/** (docs/operators/limits.md, "What counts") What the allowance counted and has not stored yet. */

const key = { kind: 'chat', subject: '-7', grain: 'hour', bucket: '2026-11-20T12:00:00.000Z' } as const;

/** A store whose writes end when the test says, each as stored or failed. */
function heldStore() {
  const writes: { rows: number; end: (failed?: Error) => void }[] = [];
  const store: StoreLimitEvents = (grants) =>
    new Promise((resolve, reject) => {
      writes.push({
        rows: grants.reduce((sum, row) => sum + row.granted, 0),
        end: (failed) => (failed ? reject(failed) : resolve()),
      });
    });
  return { store, writes };
}

describe('LimitEvents', () => {
  it('counts a grant as pending while it is buffered and while its write runs, and says when the write ends', async () => {
    const { store, writes } = heldStore();
    const events = new LimitEvents(store, 60_000);
    let written = 0;
    events.onWritten(() => (written += 1));
    events.grant(key);
    events.grant(key, 2);
    expect(events.pending(key)).toBe(3);
    expect(events.pending({ ...key, subject: '-8' })).toBe(0);
    const flushed = events.flush();
    await new Promise((resolve) => setImmediate(resolve));
    events.grant(key);
    // In the write and in the next buffer.
    expect(writes.map((w) => w.rows)).toEqual([3]);
    expect(events.pending(key)).toBe(4);
    expect(written).toBe(0);
    writes[0]!.end();
    await flushed;
    expect(events.pending(key)).toBe(1);
    expect(written).toBe(1);
  });

  it('counts the grants of a failed write once, back in the buffer', async () => {
    const { store, writes } = heldStore();
    const events = new LimitEvents(store, 60_000);
    let written = 0;
    events.onWritten(() => (written += 1));
    events.grant(key, 2);
    const flushed = events.flush();
    await new Promise((resolve) => setImmediate(resolve));
    writes[0]!.end(new Error('the database is gone'));
    await expect(flushed).rejects.toThrow('the database is gone');
    expect(events.pending(key)).toBe(2);
    expect(written).toBe(1);
    const again = events.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.map((w) => w.rows)).toEqual([2, 2]);
    writes[1]!.end();
    await again;
    expect(events.pending(key)).toBe(0);
  });
});
