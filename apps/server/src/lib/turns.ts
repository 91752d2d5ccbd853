/**
 * Long work in a request gives the event loop back every `sliceMs` of it, so timers and other requests run
 * in between (docs/operators/security.md, "Bounded work": no request holds the event loop more than
 * 50 ms). A loop of queries needs it too: better-sqlite3 runs each query synchronously and awaiting it
 * yields only to promise callbacks, so a thousand writes in a row are otherwise one stretch.
 */
export class Turns {
  private started = performance.now();

  constructor(private readonly sliceMs = 10) {}

  /** Returns at once while this turn is short; otherwise after the event loop has run once. */
  async next(): Promise<void> {
    if (performance.now() - this.started < this.sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}
