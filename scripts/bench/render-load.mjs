// Render limits that a busy machine cannot trip (docs/bot-developers/deliveries.md): BENCH_RENDER_REQUESTS (default
// 200) deliveries of the demo's templates with their variables' example values, all sent at once with a
// `messages:send` key, first on a quiet machine, then with BENCH_RENDER_HOGS (default 2) CPU-bound
// processes running beside the server. Every one must be accepted (202): a render is limited by its own
// CPU time, so the time the hogs take from it does not count. The deliveries are due in an hour, so the
// sender sends none meanwhile.
import { spawn } from 'node:child_process';
import { seedContent } from '../demo/seed-content.mjs';
import { percentile } from './percentile.mjs';
import { say } from './print.mjs';
import { onEachDatabase, withServerKey } from './scratch.mjs';
import { RENDER_LOAD } from './settings.mjs';

const MESSAGING = '/api/v1/messaging';

/** A catalogued variable's example as the JSON type its data type names (examples are stored as text). */
function example({ data_type: type, example_value: raw }) {
  if (type === 'number' || type === 'integer') return Number(raw);
  if (type === 'array' || type === 'object') return JSON.parse(raw);
  return raw;
}

/** Processes that keep a core busy until killed. */
function startHogs(count) {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
}

async function burst(api, key, requests) {
  const sendAt = new Date(Date.now() + 3600_000).toISOString();
  const statuses = new Map();
  const times = [];
  await Promise.all(
    requests.map(async (delivery) => {
      const started = performance.now();
      const response = await fetch(`${api.baseUrl}${MESSAGING}/deliveries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...delivery, send_at: sendAt }),
      });
      const body = await response.json();
      times.push(performance.now() - started);
      const label = response.ok ? String(response.status) : `${response.status} ${body.detail}`;
      statuses.set(label, (statuses.get(label) ?? 0) + 1);
    }),
  );
  times.sort((a, b) => a - b);
  return {
    accepted: statuses.get('202') ?? 0,
    statuses,
    p50: percentile(times, 50) ?? 0,
    p99: percentile(times, 99) ?? 0,
    max: times.at(-1) ?? 0,
  };
}

/** Runs the two bursts; returns their results. */
async function measureRenderLoad(label, { api, token, key }, { requests: count, hogs }) {
  await seedContent(api, token);
  const variables = await api.request('GET', `${MESSAGING}/variables`, { token });
  const data = Object.fromEntries(
    variables.filter((v) => v.example_value !== null).map((v) => [v.variable_name, example(v)]),
  );
  const templates = (await api.request('GET', `${MESSAGING}/templates`, { token })).filter((t) => t.enabled);
  const requests = Array.from({ length: count }, (_, i) => ({
    template_id: templates[i % templates.length].id,
    data,
  }));
  const quiet = await burst(api, key, requests);
  const running = startHogs(hogs);
  try {
    // Let the hogs take their cores before the burst.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const loaded = await burst(api, key, requests);
    return { label, templates: templates.length, requests: count, hogs, quiet, loaded };
  } finally {
    for (const hog of running) hog.kill('SIGKILL');
  }
}

function printRenderLoad(run) {
  say(
    `Render limits on ${run.label}: ${run.requests} deliveries of the demo's ${run.templates} templates at once`,
  );
  for (const [name, result] of [
    ['quiet', run.quiet],
    [`${run.hogs} CPU-bound processes beside`, run.loaded],
  ]) {
    const others = [...result.statuses].filter(([status]) => status !== '202');
    say(
      `  ${name}: ${result.accepted}/${run.requests} accepted (p50 ${result.p50.toFixed(0)} ms, p99 ${result.p99.toFixed(0)} ms, max ${result.max.toFixed(0)} ms)` +
        (others.length ? `; refused: ${others.map(([s, n]) => `${n} × ${s}`).join(', ')}` : ''),
    );
  }
  const met = run.loaded.accepted === run.requests && run.quiet.accepted === run.requests;
  say(`  Target (every one accepted, also under load): ${met ? 'met' : 'NOT met'}`);
}

/** Part `render-load` of `npm run bench` (scripts/bench.mjs): measures and prints the bursts on each database. */
export async function renderLoadPart() {
  await onEachDatabase('render', (label, env) =>
    withServerKey(env, 'bench render load', ['messages:send'], async (server, { token, key }) =>
      printRenderLoad(await measureRenderLoad(label, { api: server.api, token, key }, RENDER_LOAD)),
    ),
  );
}
