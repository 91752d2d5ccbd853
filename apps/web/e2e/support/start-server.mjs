// Starts the built server on a throwaway data directory for the end-to-end tests, and removes it on exit.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { badRequest, FakeBotApi } from '@lumi/test-support/fake-bot-api';

const dataDir = mkdtempSync(path.join(tmpdir(), 'lumi-e2e-'));
const cleanup = () => rmSync(dataDir, { recursive: true, force: true });
process.on('exit', cleanup);

const port = Number(process.env.E2E_PORT ?? 3199);

/*
 * The shared stand-in for the Telegram Bot API (@lumi/test-support/fake-bot-api), so test sends never leave
 * the machine; the tests read the calls it received at GET /requests. It listens on the server's port +
 * 1000 (support/bot-api.ts uses the same rule), so parallel runs on other ports do not meet. A chat id that
 * starts with FAIL_ONCE_PREFIX has its first sendMessage refused the way Telegram refuses an unknown chat
 * (400, which the sender does not retry by itself) and its later ones accepted, so a spec can fail a
 * delivery and then retry it; each such chat id fails once, so specs use unique ones.
 */
const FAIL_ONCE_PREFIX = '@e2e_fail_once';
const failedOnce = new Set();
const failOnce = ({ chat_id: chatId }) => {
  if (!chatId.startsWith(FAIL_ONCE_PREFIX) || failedOnce.has(chatId)) return null;
  failedOnce.add(chatId);
  return badRequest('Bad Request: chat not found');
};
// A busy port only affects the test sends; the other specs still get their server.
await FakeBotApi.start({ port: port + 1000, failures: failOnce }).catch((error) => {
  process.stderr.write(`Fake Telegram Bot API not started: ${error.message}\n`);
});

/*
 * E2E_MOVABLE_CLOCK=1: a spec may move the server's clock forward instead of waiting in real time for a
 * time to come (a schedule's next minute). Every service reads "now" from the one clock app.ts gives it,
 * systemClock (apps/server/src/lib/time.ts), which is Date.now; here that runs on from the real time plus an
 * offset, and POST /clock {"now": ms} on the server's port + 2000 sets the offset (only forward; GET /clock
 * tells the time). Timers are not faked: the server's loops still run on real time and see the moved clock
 * at their next turn. A fake-timers library would tick a frozen Date on an interval, which falls behind real
 * time on a busy machine; an offset does not.
 */
if (process.env.E2E_MOVABLE_CLOCK === '1') {
  const realNow = Date.now;
  let offset = 0;
  Date.now = () => realNow() + offset;
  const control = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.method === 'POST') {
        const to = Number(JSON.parse(body || '{}').now);
        if (Number.isFinite(to)) offset = Math.max(offset, to - realNow());
      }
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ now: Date.now() }));
    });
  });
  await new Promise((resolve) => control.listen(port + 2000, '127.0.0.1', resolve));
}

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
