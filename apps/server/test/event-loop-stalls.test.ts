import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentThreadCpuFile, threadCpuReader } from '../src/lib/thread-cpu.js';
import { createTestApp, dialects, type Session, type TestApp } from './helper.js';
import { createChannel, createTemplate } from './messaging-helper.js';
import { botKey } from './telemetry-helper.js';

/**
 * No request any client can send holds the event loop more than 50 ms (docs/operators/security.md, "Bounded work"):
 * the worst cases an attacker found, each sent on its own while a 1 ms timer ticks. What the test measures
 * is the main thread's CPU time between two ticks, not wall time, so a machine busy with other processes
 * cannot fail it; a stall is work the server did in one go.
 */
const LIMIT_MS = 50;

/** The longest stretch of main-thread CPU time between two turns of the event loop while `work` runs. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  const cpu = threadCpuReader(currentThreadCpuFile());
  if (!cpu) throw new Error('this test reads /proc/thread-self/schedstat (Linux)');
  let last = cpu.read();
  let longest = 0;
  const timer = setInterval(() => {
    const now = cpu.read();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 5));
  } finally {
    clearInterval(timer);
    cpu.close();
  }
  return longest;
}

const manyKeys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

describe.each(dialects)('event-loop stalls on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let ingestKey: Record<string, string>;
  let templateId: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.loginAdmin();
    ingestKey = await botKey(t, ['ingest:write', 'messages:send']);
    const channel = await createChannel(t, admin);
    templateId = (await createTemplate(t, admin, { channel_id: channel.id })).id;
  });
  afterAll(() => t.close());

  const send = (method: 'POST' | 'PUT', url: string, payload: string, headers: object = admin.auth) =>
    t.app.inject({ method, url, payload, headers: { ...headers, 'content-type': 'application/json' } });

  /** Each case: a request and the statuses it may answer. Bodies are made before the clock starts. */
  const cases: [
    string,
    (run: number) => [method: 'POST' | 'PUT', url: string, body: string, auth?: 'none' | 'key'],
  ][] = [
    [
      'sign-in with 70,000 unknown keys',
      () => ['POST', '/api/auth/login', JSON.stringify(manyKeys(70_000)), 'none'],
    ],
    [
      'a profile name of 1,000,000 characters',
      () => [
        'PUT',
        '/api/auth/profile',
        JSON.stringify({ name: 'n'.repeat(1_000_000), email: 'admin@example.com' }),
      ],
    ],
    [
      'configuration content with 70,000 keys',
      () => [
        'POST',
        '/api/admin/api/config/moods',
        JSON.stringify({ name: 'wide', tags: [], priority: 1, content: manyKeys(70_000) }),
      ],
    ],
    [
      'configuration content of 70 objects of 1,000 keys',
      () => [
        'POST',
        '/api/admin/api/config/moods',
        JSON.stringify({
          name: 'wide2',
          tags: [],
          priority: 1,
          content: Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`o${i}`, manyKeys(1_000)])),
        }),
      ],
    ],
    [
      'an import of 1,000 items',
      (run) => [
        'POST',
        '/api/admin/api/config/moods/import',
        JSON.stringify({
          items: Array.from({ length: 1_000 }, (_, i) => ({
            name: `item ${run} ${i}`,
            description: 'd'.repeat(200),
            content: manyKeys(30),
            tags: ['a', 'b'],
            priority: 1 + (i % 10),
            active: true,
          })),
        }),
      ],
    ],
    [
      'an alert condition with 70,000 keys',
      () => [
        'POST',
        '/api/alerts/rules',
        JSON.stringify({
          name: 'wide',
          enabled: false,
          condition: { type: 'errors', count: 1, minutes: 5, ...manyKeys(70_000) },
        }),
      ],
    ],
    [
      'a render with 60 KB of data',
      () => [
        'POST',
        '/api/v1/messaging/render',
        JSON.stringify({
          template_content: '{{#each rows}}{{this}}{{/each}}',
          parse_mode: 'HTML',
          data: { rows: Array.from({ length: 5_000 }, (_, i) => `r${i}`.padEnd(8, 'x')) },
        }),
      ],
    ],
    [
      'a batch of 500 deliveries',
      (run) => [
        'POST',
        '/api/v1/messaging/deliveries/batch',
        JSON.stringify({
          deliveries: Array.from({ length: 500 }, (_, i) => ({
            template_id: templateId,
            data: { token_name: 'x'.repeat(2_000), price_usd: i },
            idempotency_key: `k${run} ${i}`,
          })),
        }),
        'key',
      ],
    ],
    [
      '1,000 ingested events',
      (run) => [
        'POST',
        '/api/ingest/events',
        JSON.stringify({
          events: Array.from({ length: 1_000 }, (_, i) => ({
            type: 'llm_call',
            event_id: `e${run} ${i}`,
            provider: 'openai',
            model: 'gpt-4o-mini',
            input_tokens: 10,
            output_tokens: 5,
            latency_ms: 100,
            success: true,
            chat_id: `c${i % 50}`,
            user_id: `u${i % 70}`,
            feature: 'reply',
          })),
        }),
        'key',
      ],
    ],
  ];

  it.each(cases)('%s', async (_name, build) => {
    // The best of three: a stall of ours shows in every run, a hiccup of the machine's in one.
    const stalls: number[] = [];
    for (let run = 0; run < 3 && Math.min(...stalls, Infinity) > LIMIT_MS; run += 1) {
      const [method, url, body, who] = build(run);
      const headers = who === 'none' ? {} : who === 'key' ? ingestKey : admin.auth;
      let status = 0;
      stalls.push(
        await longestStall(async () => {
          status = (await send(method, url, body, headers)).statusCode;
        }),
      );
      expect(status).toBeLessThan(500);
    }
    expect(Math.min(...stalls), `longest stall of ${stalls.join(', ')} ms`).toBeLessThanOrEqual(LIMIT_MS);
  });
});
