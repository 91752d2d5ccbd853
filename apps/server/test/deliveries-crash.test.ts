import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  Channel,
  DeliveryBatchResponse,
  DeliveryDetail,
  DeliveryListResponse,
  Template,
} from '@lumi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, ServerProcess } from './cluster-process.js';
import { FakeBotApi } from '@lumi/test-support/fake-bot-api';
import { ADMIN, createPostgresDatabase, dialects } from './helper.js';

const TOKEN = '123456789:AAE-crash_test_token';
const CHATS = 20;
const PER_CHAT = 10;

/**
 * The crash test (docs/bot-developers/deliveries.md, "Guarantees"): 200 deliveries are queued, the server is killed with SIGKILL while it sends, and
 * started again on the same database. Every delivery must end sent exactly once or unknown (the kill came
 * between Telegram's receipt and the record of it): none lost, none sent twice. Only a delivery whose send
 * had started may be unknown: one the killed instance had not begun to send is sent after the restart.
 */
describe.each(dialects)('deliveries across a kill -9 on %s', (dialect) => {
  let bot: FakeBotApi;
  let databaseUrl = '';
  let dataDir = '';
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    bot = await FakeBotApi.start();
    // Slow answers, so that sends are in flight when the kill comes.
    bot.delayMs = 400;
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumi-crash-'));
    if (dialect === 'postgres') {
      const database = await createPostgresDatabase({ empty: true });
      databaseUrl = database.url;
      drop = database.drop;
    }
  });
  afterAll(async () => {
    await bot.close();
    rmSync(dataDir, { recursive: true, force: true });
    await drop?.();
  });

  it('ends every delivery sent once or unknown, none lost', async () => {
    const env = {
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_BASE_URL: bot.url,
      LUMI_DELIVERY_LEASE_SECONDS: '3',
      LOG_LEVEL: 'warn',
    };
    const first = await ServerProcess.start('crash-1', databaseUrl, env, { dataDir });
    let second: ServerProcess | undefined;
    try {
      const token = await first.login(ADMIN.username, ADMIN.password);
      const json = async <T>(res: Response, status: number) => {
        expect(res.status, await res.clone().text()).toBe(status);
        return (await res.json()) as T;
      };
      const channels: Channel[] = [];
      for (let i = 0; i < CHATS; i += 1) {
        channels.push(
          await json<Channel>(
            await first.request('POST', '/api/v1/messaging/channels', {
              token,
              body: { channel_name: `Crash ${i}`, chat_id: `-100${i + 1}` },
            }),
            201,
          ),
        );
      }
      const template = await json<Template>(
        await first.request('POST', '/api/v1/messaging/templates', {
          token,
          body: { template_name: 'Crash', channel_id: channels[0]!.id, template_content: 'Message {{n}}' },
        }),
        201,
      );
      const batch = await json<DeliveryBatchResponse>(
        await first.request('POST', '/api/v1/messaging/deliveries/batch', {
          token,
          body: {
            deliveries: Array.from({ length: CHATS * PER_CHAT }, (_, n) => ({
              template_id: template.id,
              channel_id: channels[n % CHATS]!.id,
              data: { n },
            })),
          },
        }),
        202,
      );
      expect(batch.accepted).toHaveLength(CHATS * PER_CHAT);

      // Kill it mid-sending: some answered, some in flight, most still queued.
      await eventually(() => (bot.requests.length >= 30 ? true : undefined), 30_000, 'sends to begin');
      await first.stop('SIGKILL');

      second = await ServerProcess.start('crash-2', databaseUrl, env, { dataDir });
      const adminToken = await second.login(ADMIN.username, ADMIN.password);
      const all = async () => {
        const res = await second!.request('GET', '/api/v1/messaging/deliveries?limit=200', {
          token: adminToken,
        });
        return ((await res.json()) as DeliveryListResponse).deliveries;
      };
      const final = await eventually(
        async () => {
          const deliveries = await all();
          return deliveries.every((d) => d.status === 'sent' || d.status === 'unknown')
            ? deliveries
            : undefined;
        },
        90_000,
        'every delivery to be sent or unknown',
      );
      expect(final).toHaveLength(CHATS * PER_CHAT);

      const received = new Map<string, number>();
      for (const r of bot.requests.filter((req) => req.method === 'sendMessage')) {
        received.set(String(r.body.text), (received.get(String(r.body.text)) ?? 0) + 1);
      }
      // Never twice.
      expect([...received.values()].filter((n) => n > 1)).toEqual([]);
      for (const delivery of final) {
        if (delivery.status === 'sent') expect(received.get(delivery.text)).toBe(1);
        else expect(received.get(delivery.text) ?? 0).toBeLessThanOrEqual(1);
      }
      const unknown = final.filter((d) => d.status === 'unknown');
      // The kill came mid-send: at least one answer was lost with it.
      expect(unknown.length).toBeGreaterThan(0);
      // Each unknown one had started: Telegram received it, but for a request still on its way when the
      // kill came (its attempt is recorded right before the request goes out; a next one starts at least
      // a spacing later, so at most one or two can be there).
      const neverReceived = unknown.filter((d) => !received.has(d.text));
      expect(neverReceived.length, JSON.stringify(neverReceived.map((d) => d.id))).toBeLessThanOrEqual(2);
      for (const delivery of unknown) {
        const res = await second.request('GET', `/api/v1/messaging/deliveries/${delivery.id}`, {
          token: adminToken,
        });
        const detail = (await res.json()) as DeliveryDetail;
        expect(detail.attempt_log).toEqual([expect.objectContaining({ attempt: 1, outcome: 'unknown' })]);
      }
    } finally {
      await first.stop('SIGKILL');
      await second?.stop();
    }
  }, 180_000);
});
