// Hostile requests (docs/operators/security.md, "Bounded work"): how long the worst request a client can send holds the server's
// event loop. Each attack is sent ROUNDS times, one after another, while a probe asks GET /api/health
// every few milliseconds; the longest health answer during the attack is the event loop's longest hold
// plus one loopback round trip. Target: at most ~50 ms for every attack.
import { setTimeout as sleep } from 'node:timers/promises';
import { say } from './print.mjs';
import { onEachDatabase, withServerKey } from './scratch.mjs';

const ROUNDS = 20;
export const HOLD_TARGET_MS = 50;

/** Sends a request, reads its answer through and resolves with the status. */
async function statusOf(request) {
  const response = await request;
  await response.arrayBuffer();
  return response.status;
}

const wrongPassword = (baseUrl, username) =>
  fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'wrong-password-1' }),
  });

/** The attacks, each a function that sends one request and returns its status. */
function attacks(baseUrl, token, ingestKey) {
  const send = (method, path, body, key = token) =>
    statusOf(
      fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
  const rows = Array.from({ length: 200 }, (_, i) => i);
  const render = (template_content, data) =>
    send('POST', '/api/v1/messaging/render', { template_content, parse_mode: 'HTML', data });
  const nulEvents = Array.from({ length: 1000 }, (_, i) => ({
    type: 'error',
    id: `hostile-${i}`,
    ts: new Date().toISOString(),
    source: 'bench',
    message: `broken\u0000${'x'.repeat(900)}`,
  }));
  return [
    [
      'render: {{#each}} 200 × 200',
      () => render('{{#each rows}}{{#each ../rows}}{{this}},{{/each}}{{/each}}', { rows }),
    ],
    [
      'render: {{#each}} 200 × 200 × 200',
      () =>
        render('{{#each r}}{{#each ../r}}{{#each ../../r}}{{this}}{{/each}}{{/each}}{{/each}}', { r: rows }),
    ],
    [
      'render: 20,000-character body × 200',
      () => render(`{{#each rows}}${'x'.repeat(19_900)}{{/each}}`, { rows }),
    ],
    ['render: {{{value}}} of 60 KB × 300', () => render('{{{v}}}'.repeat(300), { v: 'y'.repeat(60_000) })],
    ['render: 1,000 {{…}} (the most a template may have)', () => render('{{a}} '.repeat(1000), { a: 1 })],
    ['render: 4,000 {{…}} (refused before compiling)', () => render('{{a}}'.repeat(4000), { a: 1 })],
    ['JSON nested 1,000,000 deep (1 MB)', () => send('PUT', '/api/auth/profile', '['.repeat(1_000_000))],
    [
      'ingest: 1,000 events (1 MB), each with a NUL',
      () => send('POST', '/api/ingest/events', { events: nulEvents }, ingestKey),
    ],
    ['sign-in: wrong password (5 checked, then 429)', () => statusOf(wrongPassword(baseUrl, 'admin'))],
  ];
}

/**
 * A burst of 100 requests at once is not one request holding the loop, but its queue shows what a flood
 * costs: 100 wrong passwords beside 100 of the cheapest request there is (an unauthenticated GET).
 */
function bursts(baseUrl) {
  const burst = (request) => async () => {
    const statuses = await Promise.all(Array.from({ length: 100 }, () => statusOf(request())));
    return statuses.sort().at(-1);
  };
  return [
    ['burst: 100 wrong passwords at once', burst(() => wrongPassword(baseUrl, 'burst-target'))],
    ['burst: 100 × GET /api/auth/me without a token', burst(() => fetch(`${baseUrl}/api/auth/me`))],
  ];
}

/** Runs every attack against a running server; returns one row per attack. */
async function measureHostile(baseUrl, token, ingestKey) {
  const rows = [];
  for (const [name, run] of [...attacks(baseUrl, token, ingestKey), ...bursts(baseUrl)]) {
    let running = true;
    let hold = 0;
    const probe = (async () => {
      while (running) {
        const t0 = performance.now();
        await fetch(`${baseUrl}/api/health`).then((r) => r.arrayBuffer());
        hold = Math.max(hold, performance.now() - t0);
        await sleep(2);
      }
    })();
    const times = [];
    const statuses = new Set();
    for (let i = 0; i < ROUNDS; i += 1) {
      const t0 = performance.now();
      statuses.add(await run());
      times.push(performance.now() - t0);
    }
    running = false;
    await probe;
    times.sort((a, b) => a - b);
    rows.push({
      name,
      statuses: [...statuses].join('/'),
      median: times[times.length >> 1],
      max: times.at(-1),
      hold,
    });
  }
  return rows;
}

function printHostile(label, rows) {
  say(`\nHostile requests on ${label} (${ROUNDS} of each, one at a time, GET /api/health probed meanwhile)`);
  say('| Attack | Status | Answer, median / max (ms) | Longest health answer (ms) |');
  say('| --- | --- | --- | --- |');
  for (const r of rows) {
    const verdict = r.name.startsWith('burst') ? '(queue)' : r.hold <= HOLD_TARGET_MS ? 'ok' : 'OVER';
    say(
      `| ${r.name} | ${r.statuses} | ${r.median.toFixed(1)} / ${r.max.toFixed(1)} | ${r.hold.toFixed(1)} ${verdict} |`,
    );
  }
  const worst = Math.max(...rows.filter((r) => !r.name.startsWith('burst')).map((r) => r.hold));
  say(
    `Worst hold by one request (bursts aside): ${worst.toFixed(1)} ms (target ≤ ${HOLD_TARGET_MS} ms): ${worst <= HOLD_TARGET_MS ? 'met' : 'NOT met'}`,
  );
}

/** Part `hostile` of `npm run bench` (scripts/bench.mjs): measures and prints the attacks on each database. */
export async function hostilePart() {
  await onEachDatabase('hostile', (label, env) =>
    withServerKey(env, 'hostile', ['ingest:write'], async (server, { token, key }) =>
      printHostile(label, await measureHostile(server.baseUrl, token, key)),
    ),
  );
}
