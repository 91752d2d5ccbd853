import type { BotApiRequest } from '@lumi/test-support/fake-bot-api';
import type { APIRequestContext } from '@playwright/test';
import { E2E_PORT } from './constants';

export type { BotApiRequest };

/** The fake Telegram Bot API that start-server.mjs runs beside a server: on the server's port + 1000. */
export const botApiUrl = (serverPort = E2E_PORT) => `http://127.0.0.1:${serverPort + 1000}`;

/** Every request the fake Bot API received, oldest first. */
export async function botRequests(
  request: APIRequestContext,
  serverPort = E2E_PORT,
): Promise<BotApiRequest[]> {
  return (await (await request.get(`${botApiUrl(serverPort)}/requests`)).json()) as BotApiRequest[];
}

/** The sendMessage requests for `chatId`, oldest first. */
export async function sendMessagesTo(
  request: APIRequestContext,
  chatId: string,
  serverPort = E2E_PORT,
): Promise<BotApiRequest[]> {
  return (await botRequests(request, serverPort)).filter(
    (call) => call.method === 'sendMessage' && call.body.chat_id === chatId,
  );
}
