// How the demo (scripts/demo.mjs) stops: one signal that every wait and request of the bot listens to.

/** Aborted on Ctrl+C, SIGTERM or a failure: the bot stops sending, and its waits end at once. */
export const stopping = new AbortController();

/** Thrown where the bot stops: with a message, the reason the demo cannot go on; without, a clean stop. */
export class DemoStop extends Error {}

/** Waits `ms`, or less when `signal` aborts. */
export const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
