/**
 * The first data call public/first-load.js sends on an alert's link as soon as the remembered session is
 * restored, before this code has loaded, to show the rule at once (docs/benchmarks.md, "The first
 * signed-in load"): the app's own first call for the same address takes its answer.
 */
interface EarlyCalls {
  /** The access token they were sent with: the restored session's. */
  token: string;
  /** The answers not yet taken, by address. */
  calls: Record<string, Promise<Response>>;
}

declare global {
  interface Window {
    lumiEarlyCalls?: EarlyCalls;
  }
}

/** After this long since the page began loading, an answer not yet taken is too old to show: asked anew. */
const EARLY_ANSWER_USE_MS = 30_000;

/**
 * The early answer for a GET of `url` sent with `token`, handed out once: a later call for the address, or
 * one with another token (another session), asks the server itself.
 */
export function takeEarlyCall(url: string, token: string | null): Promise<Response> | undefined {
  const early = window.lumiEarlyCalls;
  if (!early || early.token !== token || !Object.hasOwn(early.calls, url)) return undefined;
  const call = early.calls[url];
  delete early.calls[url];
  return performance.now() > EARLY_ANSWER_USE_MS ? undefined : call;
}
