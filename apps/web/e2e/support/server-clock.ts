import { expect, type APIRequestContext } from '@playwright/test';

/**
 * Moves the clock of the server on `serverPort` (started with E2E_MOVABLE_CLOCK=1, see start-server.mjs)
 * forward to `now` (ms since the epoch), instead of waiting for that time in real time.
 */
export async function moveServerClock(request: APIRequestContext, serverPort: number, now: number) {
  const response = await request.post(`http://127.0.0.1:${serverPort + 2000}/clock`, { data: { now } });
  expect(response.ok()).toBeTruthy();
  expect(((await response.json()) as { now: number }).now).toBeGreaterThanOrEqual(now);
}
