/**
 * Waiting in real time while a test's clock is fake: the SDK's requests travel over real sockets, so a
 * test waits for them with these (captured before any test fakes the timers), never with the fake clock.
 */
const realSetTimeout = globalThis.setTimeout;

export const realSleep = (ms: number) => new Promise<void>((resolve) => realSetTimeout(resolve, ms));

/** Resolves once `check` returns true; fails after `timeoutMs` of real time. */
export async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await realSleep(5);
  }
}
