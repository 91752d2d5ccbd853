// A local stand-in for the Telegram Bot API, for the benchmark and the demo only: it is NOT Telegram and
// sends nothing anywhere. It answers POST /bot<token>/<method> as the Bot API does (sendMessage gives a
// message, pinChatMessage true, any other method ok) and records when each message arrived.
// With `limit`, it refuses a message with 429 and parameters.retry_after when 30 messages arrived within
// the last second, as Telegram does to a bot beyond its overall limit.
// With `failures` (the demo's, scripts/demo/bot-api-failures.mjs; off unless given, so the benchmark's
// fake never fails), it also refuses a message now and then on purpose, with the answer that function
// chooses; a 429 it chooses holds for its retry_after, as Telegram's flood wait does.
import { createServer } from 'node:http';

export const TELEGRAM_PER_SECOND = 30;

/** Telegram's answer to a bot that must wait `seconds` before sending again. */
export const tooManyRequests = (seconds) => ({
  error_code: 429,
  description: `Too Many Requests: retry after ${seconds}`,
  retry_after: seconds,
});

/** Milliseconds since the epoch with sub-millisecond precision, for spacing figures. */
const nowMs = () => performance.timeOrigin + performance.now();

/**
 * Starts the fake on host:port (a free port by default). Returns its `url` (for TELEGRAM_API_BASE_URL),
 * `messages` (each sendMessage it accepted: { at, chat_id, text }), `refused` (each it refused on purpose:
 * { at, chat_id, error_code, description, retry_after?, flood_wait }, flood_wait when it came within an
 * earlier 429's retry_after), `counts` (requests by method, the 429s `limit` answered, and the refusals on
 * purpose) and close().
 *
 * `failures(message, n)`, when given, is asked about the n-th sendMessage (from 1, retries included;
 * message is { chat_id, text }) and returns null to go on, or a Bot API error to answer instead:
 * { error_code, description, retry_after? }.
 */
export async function startFakeBotApi({ host = '127.0.0.1', port = 0, limit = false, failures } = {}) {
  const messages = [];
  const refused = [];
  const counts = { requests: 0, byMethod: {}, rateLimited: 0, refusedOnPurpose: 0 };
  let nextMessageId = 1000;
  let sendCount = 0;
  /** Until when a 429 chosen by `failures` holds (ms): every message meanwhile gets one too. */
  let floodWaitUntil = 0;

  const answer = (res, status, body) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const refuse = (res, { error_code, description, retry_after }) =>
    answer(res, error_code, {
      ok: false,
      error_code,
      description,
      ...(retry_after && { parameters: { retry_after } }),
    });

  /** Messages accepted within the second before `at` (they are in arrival order). */
  const inLastSecond = (at) => {
    let n = 0;
    for (let i = messages.length - 1; i >= 0 && messages[i].at > at - 1000; i -= 1) n += 1;
    return n;
  };

  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const at = nowMs();
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
    if (!match || req.method !== 'POST') {
      return answer(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    }
    const method = match[2];
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    } catch {
      return answer(res, 400, { ok: false, error_code: 400, description: 'Bad Request: invalid JSON' });
    }
    counts.requests += 1;
    counts.byMethod[method] = (counts.byMethod[method] ?? 0) + 1;

    if (method === 'sendMessage') {
      sendCount += 1;
      const chatId = String(body.chat_id);
      const waiting = at < floodWaitUntil;
      const failure = waiting
        ? tooManyRequests(Math.ceil((floodWaitUntil - at) / 1000))
        : failures?.({ chat_id: chatId, text: body.text }, sendCount);
      if (failure) {
        if (failure.retry_after && !waiting) floodWaitUntil = at + failure.retry_after * 1000;
        counts.refusedOnPurpose += 1;
        refused.push({ at, chat_id: chatId, ...failure, flood_wait: waiting });
        return refuse(res, failure);
      }
      if (limit && inLastSecond(at) >= TELEGRAM_PER_SECOND) {
        counts.rateLimited += 1;
        return refuse(res, tooManyRequests(1));
      }
      nextMessageId += 1;
      messages.push({ at, chat_id: chatId, text: body.text });
      return answer(res, 200, {
        ok: true,
        result: {
          message_id: nextMessageId,
          date: Math.floor(at / 1000),
          chat: { id: body.chat_id, type: 'supergroup', title: `Fake chat ${body.chat_id}` },
          text: body.text,
        },
      });
    }
    return answer(res, 200, { ok: true, result: true });
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, resolve);
  });
  const url = `http://${host}:${server.address().port}`;
  return {
    url,
    messages,
    refused,
    counts,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
