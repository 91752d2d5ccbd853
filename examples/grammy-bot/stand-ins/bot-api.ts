import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeBotApi } from '@lumi/test-support/fake-bot-api';
import type { Update, UserFromGetMe } from 'grammy/types';

/**
 * A stand-in for the Telegram Bot API that a grammY bot can long-poll, for `npm run example`: it answers
 * `getMe` and `getUpdates` (https://core.telegram.org/bots/api#getupdates: updates from `offset` on, held
 * up to `timeout` seconds until one comes) itself, and passes every other method (sendMessage,
 * sendChatAction …) to the shared fake Bot API of @lumi/test-support, which is also where Lumi's own
 * deliveries go. It is NOT Telegram: nothing leaves this machine.
 */

export interface SentMessage {
  chat_id: string;
  message_id: number;
  text: string;
}

export interface BotApiStandIn {
  /** The bot's `apiRoot`. */
  url: string;
  /** Hands an update to the bot at its next (or current) getUpdates; update_id is filled in. */
  push(update: Omit<Update, 'update_id'>): void;
  /** Messages the bot sent through this stand-in, with the ids Telegram (the fake) gave them. */
  sent: SentMessage[];
  /** Resolves once the bot has asked for updates (it is running). */
  polling: Promise<void>;
  /** Resolves once the bot has sent `count` messages in all. */
  sentCount(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startBotApiStandIn(fake: FakeBotApi, me: UserFromGetMe): Promise<BotApiStandIn> {
  const updates: Update[] = [];
  const sent: SentMessage[] = [];
  let nextId = 1;
  let wake: (() => void) | null = null;
  let startPolling: () => void = () => undefined;
  const polling = new Promise<void>((resolve) => (startPolling = resolve));

  const getUpdates = async (body: { offset?: number; timeout?: number }, req: IncomingMessage) => {
    startPolling();
    const offset = body.offset ?? 0;
    while (updates.length > 0 && updates[0]!.update_id < offset) updates.shift();
    if (updates.length === 0 && (body.timeout ?? 0) > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, (body.timeout ?? 0) * 1000);
        wake = () => (clearTimeout(timer), resolve());
        req.once('close', () => wake?.());
      });
      wake = null;
    }
    return updates.filter((u) => u.update_id >= offset);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const method = /^\/bot[^/]+\/(\w+)$/.exec(req.url ?? '')?.[1];
    const body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
    if (method === 'getMe') return reply(res, 200, { ok: true, result: me });
    if (method === 'getUpdates') return reply(res, 200, { ok: true, result: await getUpdates(body, req) });
    const answer = await fetch(`${fake.url}${req.url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: raw.length ? raw : '{}',
    });
    const result = (await answer.json()) as { ok: boolean; result?: { message_id?: number; text?: string } };
    if (method === 'sendMessage' && result.ok && result.result?.message_id) {
      sent.push({
        chat_id: String(body.chat_id),
        message_id: result.result.message_id,
        text: String(body.text),
      });
    }
    return reply(res, answer.status, result);
  };

  const server = createServer(
    (req, res) => void handle(req, res).catch(() => reply(res, 500, { ok: false })),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    push: (update) => {
      updates.push({ ...update, update_id: nextId++ } as Update);
      wake?.();
    },
    sent,
    polling,
    sentCount: async (count, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (sent.length < count) {
        if (Date.now() > deadline)
          throw new Error(`The bot sent ${sent.length} of ${count} messages in time`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: async () => {
      wake?.();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function reply(res: ServerResponse, status: number, body: unknown) {
  if (!res.headersSent)
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
