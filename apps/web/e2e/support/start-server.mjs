// Starts the built server on a throwaway data directory for the end-to-end tests, and removes it on exit.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dataDir = mkdtempSync(path.join(tmpdir(), 'lumi-e2e-'));
const cleanup = () => rmSync(dataDir, { recursive: true, force: true });
process.on('exit', cleanup);

const port = Number(process.env.E2E_PORT ?? 3199);

/*
 * A stand-in for the Telegram Bot API (https://core.telegram.org/bots/api#making-requests), so test sends
 * never leave the machine: it answers sendMessage with a new message_id and every other method with
 * `true`, and lists the calls it received at GET /requests for the tests to check. It listens on the
 * server's port + 1000 (messages.spec.ts uses the same rule), so parallel runs on other ports do not meet.
 * A chat id that starts with FAIL_ONCE_PREFIX has its first sendMessage refused the way Telegram refuses
 * an unknown chat (400, which the sender does not retry by itself) and its later ones accepted, so a spec
 * can fail a delivery and then retry it; each such chat id fails once, so specs use unique ones.
 */
const FAIL_ONCE_PREFIX = '@e2e_fail_once';
const failedOnce = new Set();
const botRequests = [];
let nextMessageId = 1000;
const fakeBotApi = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    response.setHeader('content-type', 'application/json');
    if (request.method === 'GET' && request.url === '/requests')
      return response.end(JSON.stringify(botRequests));
    const method = /^\/bot[^/]+\/(\w+)$/.exec(request.url ?? '')?.[1] ?? '';
    let params = {};
    try {
      params = JSON.parse(body || '{}');
    } catch {
      // Recorded as sent: an empty object tells the test the body was not JSON.
    }
    botRequests.push({ method, params });
    const chatId = String(params.chat_id ?? '');
    if (method === 'sendMessage' && chatId.startsWith(FAIL_ONCE_PREFIX) && !failedOnce.has(chatId)) {
      failedOnce.add(chatId);
      response.statusCode = 400;
      const refusal = { ok: false, error_code: 400, description: 'Bad Request: chat not found' };
      return response.end(JSON.stringify(refusal));
    }
    if (method === 'sendMessage') {
      nextMessageId += 1;
      const chat = { id: Number(params.chat_id) || -1001, type: 'supergroup' };
      const result = {
        message_id: nextMessageId,
        date: Math.floor(Date.now() / 1000),
        chat,
        text: params.text,
      };
      return response.end(JSON.stringify({ ok: true, result }));
    }
    response.end(JSON.stringify({ ok: true, result: true }));
  });
});
await new Promise((resolve) => {
  // A busy port only affects the test sends; the other specs still get their server.
  fakeBotApi.once('error', (error) => {
    process.stderr.write(`Fake Telegram Bot API not started: ${error.message}\n`);
    resolve();
  });
  fakeBotApi.listen(port + 1000, '127.0.0.1', resolve);
});

Object.assign(process.env, {
  DATA_DIR: dataDir,
  PORT: String(port),
  HOST: '127.0.0.1',
  LUMI_ADMIN_USERNAME: 'admin',
  LUMI_ADMIN_PASSWORD: 'E2e-Lantern-Orbit-7731',
  LOG_LEVEL: 'warn',
  TELEGRAM_BOT_TOKEN: '123456789:e2e-fake-token',
  TELEGRAM_API_BASE_URL: `http://127.0.0.1:${port + 1000}`,
  // Alert rules are evaluated every second, so alerts.spec.ts sees a rule fire and resolve at once.
  ALERT_EVALUATION_SECONDS: '1',
});
delete process.env.DATABASE_URL;

const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../server/dist/server.js');
await import(pathToFileURL(server).href);
