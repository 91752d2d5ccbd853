import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLumi, DeliveryRefused, type BotConfig, type Lumi, type LumiOptions } from '../src/index.js';
import { FakeLumi } from './fake-lumi.js';
import { realSleep, until } from './wait.js';

let lumi: FakeLumi;
const clients: Lumi[] = [];
const problems: string[] = [];
let dir: string;

const connect = (options: Partial<LumiOptions> = {}) => {
  const client = createLumi({
    url: lumi.url,
    apiKey: 'lumi_test',
    onError: (error) => problems.push(error.message),
    ...options,
  });
  clients.push(client);
  return client;
};

const personality = (tone: string): BotConfig => ({
  version: `v-${tone}`,
  domains: {
    personalities: [
      { id: 1, name: 'Lumi', description: '', content: { tone }, tags: [], priority: 10, version: 1 },
      {
        id: 2,
        name: 'Analyst',
        description: '',
        content: 'Figures first.',
        tags: [],
        priority: 5,
        version: 1,
      },
    ],
  },
});

beforeEach(async () => {
  lumi = await FakeLumi.start();
  lumi.config = personality('warm');
  problems.length = 0;
  dir = mkdtempSync(path.join(os.tmpdir(), 'lumi-sdk-config-'));
});

afterEach(async () => {
  vi.useRealTimers();
  for (const client of clients.splice(0)) await client.close(0);
  await lumi.close();
  rmSync(dir, { recursive: true, force: true });
});

const configRequests = () => lumi.requests.filter((r) => r.path === '/api/bot/config');

describe('config', () => {
  it('loads the configuration and reads items by domain and name', async () => {
    const bot = connect();
    expect(bot.config.current).toBeNull();
    const config = await bot.config.load();
    expect(config?.version).toBe('v-warm');
    expect(bot.config.version).toBe('v-warm');
    expect(bot.config.item('personalities')?.content).toEqual({ tone: 'warm' });
    expect(bot.config.item('personalities', 'Analyst')?.content).toBe('Figures first.');
    expect(bot.config.items('moods')).toEqual([]);
  });

  it('asks with the ETag, so an unchanged configuration is a 304, and tells listeners about each new version', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const bot = connect({ config: { refreshSeconds: 10 } });
    const changes: Array<[string, string | null]> = [];
    bot.config.on('change', (config, previous) => changes.push([config.version, previous?.version ?? null]));
    bot.start();
    await until(() => bot.config.current !== null, 'the first copy');
    expect(changes).toEqual([['v-warm', null]]);

    await vi.advanceTimersByTimeAsync(10_000);
    await until(() => configRequests().length === 2, 'the first refresh');
    await realSleep(20);
    expect(configRequests()[1]!.headers['if-none-match']).toBe(lumi.etag());
    expect(changes).toHaveLength(1);

    lumi.config = personality('playful');
    await vi.advanceTimersByTimeAsync(10_000);
    await until(() => changes.length === 2, 'the change');
    expect(changes[1]).toEqual(['v-playful', 'v-warm']);
    expect(bot.config.item('personalities')?.content).toEqual({ tone: 'playful' });
  });

  it('leaves no connection holding the process after a 304 (whose Content-Length Lumi sets)', async () => {
    const bot = connect();
    await bot.config.load();
    await bot.config.load();
    expect(configRequests()).toHaveLength(2);
    await realSleep(50);
    const port = Number(new URL(lumi.url).port);
    const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles() as Array<{
      remotePort?: number;
      _handle?: { hasRef?(): boolean };
    }>;
    expect(handles.filter((h) => h.remotePort === port && h._handle?.hasRef?.())).toEqual([]);
  });

  it('serves the last copy while Lumi cannot be reached, and tells onError once', async () => {
    const bot = connect();
    await bot.config.load();
    lumi.offline = true;
    expect((await bot.config.load())?.version).toBe('v-warm');
    expect((await bot.config.load())?.version).toBe('v-warm');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/GET \/api\/bot\/config: Lumi could not be reached/);
  });

  it('keeps the last copy in a file across restarts', async () => {
    const file = path.join(dir, 'nested', 'lumi-config.json');
    const first = connect({ config: { file } });
    await first.config.load();
    expect(JSON.parse(readFileSync(file, 'utf8')).config.version).toBe('v-warm');
    await first.close(0);

    // A restart while Lumi is down: the copy comes from the file.
    lumi.offline = true;
    const second = connect({ config: { file } });
    expect((await second.config.load())?.version).toBe('v-warm');

    // Lumi back with the same version: the file's ETag makes it a 304.
    lumi.offline = false;
    const third = connect({ config: { file } });
    await third.config.load();
    expect(lumi.requests.at(-1)!.headers['if-none-match']).toBe(lumi.etag());
    expect(third.config.item('personalities', 'Lumi')?.content).toEqual({ tone: 'warm' });
  });

  it('resolves with null when there has never been a copy', async () => {
    lumi.offline = true;
    const bot = connect();
    expect(await bot.config.load()).toBeNull();
    expect(problems).toHaveLength(1);
  });
});

describe('send', () => {
  it('queues a delivery with an idempotency key, and retries a 503 with the same key', async () => {
    lumi.reply('/api/v1/messaging/deliveries', { status: 503, headers: { 'retry-after': '0' } });
    const bot = connect();
    const delivery = await bot.send({ template: 'Daily digest', channel: 3, topic: 4, data: { n: 1 } });
    expect(delivery).toMatchObject({ id: 1, status: 'queued' });
    const [first, second] = lumi.requests.map((r) => r.body as Record<string, unknown>);
    expect(second).toEqual(first);
    expect(second).toEqual({
      template_name: 'Daily digest',
      channel_id: 3,
      topic_id: 4,
      data: { n: 1 },
      idempotency_key: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const again = await bot.send({ template: 7, idempotencyKey: 'digest-1' });
    expect(again.id).toBe(2);
    expect((await bot.send({ template: 7, idempotencyKey: 'digest-1' })).id).toBe(2);
  });

  it('rejects with DeliveryRefused, naming the refused delivery, when Lumi turns the send down', async () => {
    lumi.reply('/api/v1/messaging/deliveries', {
      status: 422,
      body: { detail: 'The channel is disabled', code: 'validation_failed', delivery_id: 12 },
    });
    const bot = connect();
    const refusal = await bot.send({ template: 'Alert' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DeliveryRefused);
    expect(refusal).toMatchObject({
      status: 422,
      deliveryId: 12,
      message: expect.stringMatching(/disabled/),
    });
  });
});
