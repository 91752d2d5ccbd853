// Part `deliveries` of `npm run bench` (scripts/bench.mjs): how fast Lumi accepts deliveries over HTTP, and
// how close its sender comes to Telegram's 30 messages a second without going above it, measured at a
// local fake Bot API (@lumi/test-support/fake-bot-api), which also gives the peaks against each of Telegram's
// limits as the receiver saw them.
import { setTimeout as sleep } from 'node:timers/promises';
import { preciseNow, TELEGRAM_PER_SECOND } from '@lumi/test-support/fake-bot-api';
import { ApiError } from '../lib/lumi-api.mjs';
import { createProgress } from '../lib/progress.mjs';
import { percentile } from './percentile.mjs';
import { fmt, say } from './print.mjs';
import { reportDeliveries } from './report.mjs';
import { closeFake, onEachDatabase, startFake, withServerKey } from './scratch.mjs';
import { DELIVERIES, TARGETS } from './settings.mjs';

const MESSAGING = '/api/v1/messaging';
const HOUR_MS = 3600_000;

/** A channel and a template on it; both named after `tag` so that runs on one database stay apart. */
async function channelWithTemplate(api, token, tag, chatId) {
  const channel = await api.request('POST', `${MESSAGING}/channels`, {
    token,
    body: { channel_name: `Bench ${tag}`, chat_id: chatId },
  });
  const template = await api.request('POST', `${MESSAGING}/templates`, {
    token,
    body: {
      template_name: `Bench ${tag}`,
      channel_id: channel.id,
      message_type: 'alert',
      template_content:
        '<b>{{token_name}}</b> now at {{formatCurrency price_usd}} ({{formatPercentage price_change_24h}})',
    },
  });
  return { channel, template };
}

const data = (n) => ({
  token_name: `Token ${n}`,
  price_usd: 1 + n / 1000,
  price_change_24h: (n % 200) / 10 - 10,
});

/** Runs `count` jobs with `concurrency` at once; returns each job's latency in ms, sorted. */
async function inFlight(count, concurrency, job, onDone) {
  const latencies = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      const t0 = performance.now();
      await job(index);
      latencies.push(performance.now() - t0);
      onDone?.(latencies.length);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return latencies.sort((a, b) => a - b);
}

/**
 * (a) Accepted per second: `batches` batch requests of `batchSize` deliveries with `batchConcurrency` in
 * flight, then `singles` single POSTs with `singleConcurrency` in flight. Every delivery is due an hour
 * from now, so the sender, running meanwhile, has nothing to send and the figure is accepting alone.
 */
async function measureAccepting(label, { api, token, key }, options) {
  const { batches, batchSize, batchConcurrency, singles, singleConcurrency } = options;
  const { template } = await channelWithTemplate(api, token, 'accepting', '-1001000000001');
  const sendAt = new Date(Date.now() + HOUR_MS).toISOString();
  const request = (n) => ({ template_id: template.id, data: data(n), send_at: sendAt });
  const batchBody = (b) => ({
    deliveries: Array.from({ length: batchSize }, (_, i) => request(b * batchSize + i)),
  });
  // Under load a delivery may be refused for its rendering time: counted and reported, not a failure.
  const rejected = { count: 0, reasons: new Set() };
  const postBatch = async (body) => {
    const result = await api.request('POST', `${MESSAGING}/deliveries/batch`, { token: key, body });
    rejected.count += result.rejected.length;
    for (const r of result.rejected) rejected.reasons.add(r.detail);
    return result.accepted.length;
  };

  // Warm-up: the server's first requests (compiling, caches) are not part of the figure.
  for (let b = 0; b < 3; b += 1) await postBatch(batchBody(batches + b));

  const bodies = Array.from({ length: batches }, (_, b) => batchBody(b));
  let progress = createProgress({ label: `Deliveries accepted on ${label}, batches` });
  let started = performance.now();
  let batchAccepted = 0;
  const batchLatencies = await inFlight(
    batches,
    batchConcurrency,
    async (b) => {
      const accepted = await postBatch(bodies[b]);
      batchAccepted += accepted;
    },
    (done) => progress.update(done / batches, `${fmt(done)} of ${fmt(batches)} batches`),
  );
  const batchSeconds = (performance.now() - started) / 1000;
  progress.finish();

  const offset = (batches + 3) * batchSize;
  progress = createProgress({ label: `Deliveries accepted on ${label}, single requests` });
  started = performance.now();
  let singleAccepted = 0;
  const postSingle = async (n) => {
    try {
      await api.request('POST', `${MESSAGING}/deliveries`, { token: key, body: request(offset + n) });
      singleAccepted += 1;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 422) throw error;
      rejected.count += 1;
      rejected.reasons.add(error.body?.detail ?? error.message);
    }
  };
  const singleLatencies = await inFlight(singles, singleConcurrency, postSingle, (done) =>
    progress.update(done / singles, `${fmt(done)} of ${fmt(singles)} requests`),
  );
  const singleSeconds = (performance.now() - started) / 1000;
  progress.finish();

  // Every one is still queued: none was sent, and none is missing.
  const queued = await countByStatus(api, token, template.id, 'queued');
  const expected = offset + singles - rejected.count;
  if (queued !== expected)
    throw new Error(`${fmt(queued)} deliveries queued, ${fmt(expected)} were accepted`);
  return {
    batch: {
      deliveries: batchAccepted,
      seconds: batchSeconds,
      perSecond: batchAccepted / batchSeconds,
      p50: percentile(batchLatencies, 50),
      p99: percentile(batchLatencies, 99),
    },
    single: {
      deliveries: singleAccepted,
      seconds: singleSeconds,
      perSecond: singleAccepted / singleSeconds,
      p50: percentile(singleLatencies, 50),
      p99: percentile(singleLatencies, 99),
    },
    queued,
    rejected: { count: rejected.count, reasons: [...rejected.reasons] },
  };
}

/** Deliveries of a template in a status, counted through the delivery log's pages. */
async function countByStatus(api, token, templateId, status) {
  let count = 0;
  let cursor = null;
  do {
    const query = `template_id=${templateId}&status=${status}&limit=200${cursor ? `&cursor=${cursor}` : ''}`;
    const page = await api.request('GET', `${MESSAGING}/deliveries?${query}`, { token });
    count += page.deliveries.length;
    cursor = page.next_cursor;
  } while (cursor !== null);
  return count;
}

/** The most arrivals (sorted times in ms) within any window of `ms`. */
function busiestWindow(times, ms) {
  let most = 0;
  let start = 0;
  for (let end = 0; end < times.length; end += 1) {
    while (times[end] - times[start] >= ms) start += 1;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/** The shortest time (ms) between the first and last of any `n` consecutive arrivals; null with fewer. */
function shortestSpan(times, n) {
  let shortest = null;
  for (let i = 0; i + n - 1 < times.length; i += 1) {
    const span = times[i + n - 1] - times[i];
    if (shortest === null || span < shortest) shortest = span;
  }
  return shortest;
}

const verdict = (ok) => (ok ? 'kept' : 'EXCEEDED');

/**
 * The peaks of `messages` ({ at, chat_id }, at in ms) as the receiver saw them, against Telegram's limits:
 * the most in any 1 s window, the closest two to one chat, the most to one chat and to one group (a chat
 * id starting with '-' or '@') in any 60 s; and how many chats there were.
 */
export function receiverPeaks(messages) {
  const byChat = new Map();
  for (const m of messages) byChat.set(m.chat_id, [...(byChat.get(m.chat_id) ?? []), m.at]);
  let minChatGapMs = Infinity;
  let maxChatPerMinute = 0;
  let maxGroupPerMinute = 0;
  for (const [chatId, list] of byChat) {
    const chatTimes = list.sort((a, b) => a - b);
    for (let i = 1; i < chatTimes.length; i += 1)
      minChatGapMs = Math.min(minChatGapMs, chatTimes[i] - chatTimes[i - 1]);
    const perMinute = busiestWindow(chatTimes, 60_000);
    maxChatPerMinute = Math.max(maxChatPerMinute, perMinute);
    if (/^[-@]/.test(chatId)) maxGroupPerMinute = Math.max(maxGroupPerMinute, perMinute);
  }
  return {
    chats: byChat.size,
    maxPerSecond: busiestWindow(
      messages.map((m) => m.at).sort((a, b) => a - b),
      1000,
    ),
    minChatGapMs,
    maxChatPerMinute,
    maxGroupPerMinute,
  };
}

/**
 * (b) Sender throughput: `deliveries` deliveries spread evenly over `chats` channels (so that the per-chat
 * limits do not bind), all queued before the first is due, sent to a fake Bot API without limits of its
 * own. The rate is read from the fake's arrival times over the steady part (the first and last second
 * left out: the sender starting and the queue running dry).
 */
async function measureSending(label, { api, token, key, fake }, { deliveries, chats }) {
  const { template } = await channelWithTemplate(api, token, 'sending', '-1002000000000');
  const channels = [];
  for (let c = 0; c < chats; c += 1) {
    channels.push(
      await api.request('POST', `${MESSAGING}/channels`, {
        token,
        body: { channel_name: `Bench chat ${c + 1}`, chat_id: String(-1002000000001 - c) },
      }),
    );
  }
  const before = fake.accepted.length;
  // Due once all are queued: the sender meets the whole queue at once.
  const sendAt = new Date(Date.now() + 3000).toISOString();
  const requests = Array.from({ length: deliveries }, (_, n) => ({
    template_id: template.id,
    channel_id: channels[n % chats].id,
    data: data(n),
    send_at: sendAt,
  }));
  for (let i = 0; i < requests.length; i += 500) {
    const body = { deliveries: requests.slice(i, i + 500) };
    const result = await api.request('POST', `${MESSAGING}/deliveries/batch`, { token: key, body });
    if (result.rejected.length > 0) throw new Error(`A delivery was rejected: ${result.rejected[0].detail}`);
  }

  const progress = createProgress({ label: `Sending on ${label} through the fake Bot API` });
  const deadline = Date.now() + (deliveries / TELEGRAM_PER_SECOND) * 3000 + 30_000;
  while (fake.accepted.length - before < deliveries) {
    if (Date.now() > deadline)
      throw new Error(`Only ${fake.accepted.length - before} of ${deliveries} messages arrived in time`);
    progress.update(
      (fake.accepted.length - before) / deliveries,
      `${fmt(fake.accepted.length - before)} of ${fmt(deliveries)} messages`,
    );
    await sleep(250);
  }
  progress.finish();
  const messages = fake.accepted.slice(before);
  // The sender records each delivery as sent after Telegram's answer; give the last ones a moment.
  let sent = 0;
  for (let tries = 0; tries < 50; tries += 1) {
    sent = await countByStatus(api, token, template.id, 'sent');
    if (sent >= deliveries) break;
    await sleep(100);
  }
  if (sent !== deliveries) throw new Error(`${fmt(sent)} of ${fmt(deliveries)} deliveries are recorded sent`);
  const distinct = new Set(messages.map((m) => m.text)).size;
  if (distinct !== deliveries) throw new Error(`${fmt(distinct)} distinct messages of ${fmt(deliveries)}`);

  const times = messages.map((m) => m.at).sort((a, b) => a - b);
  const first = times[0];
  const last = times.at(-1);
  const from = times.findIndex((t) => t >= first + 1000);
  const to = times.findIndex((t) => t >= last - 1000);
  const steady = (to - from) / ((times[to] - times[from]) / 1000);

  const peaks = receiverPeaks(messages);
  const { minChatGapMs, maxChatPerMinute } = peaks;
  say(
    `  Sending on ${label}, as the fake Bot API received it: at most ${peaks.maxPerSecond} messages in any ` +
      `1 s (Telegram's limit ${TELEGRAM_PER_SECOND}: ${verdict(peaks.maxPerSecond <= TELEGRAM_PER_SECOND)}); ` +
      `the closest two to one chat ${minChatGapMs.toFixed(1)} ms apart (limit 1,000 ms: ` +
      `${verdict(minChatGapMs >= 1000)}); at most ${peaks.maxGroupPerMinute} to one group in any 60 s ` +
      `(limit 20: ${verdict(peaks.maxGroupPerMinute <= 20)})`,
  );
  return {
    deliveries,
    chats: peaks.chats,
    seconds: (last - first) / 1000,
    overall: (times.length - 1) / ((last - first) / 1000),
    steady,
    steadyMessages: to - from,
    steadySeconds: (times[to] - times[from]) / 1000,
    maxPerSecond: peaks.maxPerSecond,
    // How near the busiest stretch comes to the limit: the shortest time in which one message more arrived.
    overLimitMs: shortestSpan(times, TELEGRAM_PER_SECOND + 1),
    minChatGapMs,
    maxChatPerMinute,
    maxGroupPerMinute: peaks.maxGroupPerMinute,
  };
}

/**
 * Part `deliveries` of `npm run bench` (scripts/bench.mjs): on each database, the server sending to a fake
 * Bot API without limits of its own; then the report.
 */
export async function deliveriesPart() {
  const runs = await onEachDatabase('deliveries', async (label, env) => {
    const fake = await startFake({ clock: preciseNow });
    try {
      const serverEnv = {
        ...env,
        TELEGRAM_BOT_TOKEN: '123456:bench-not-a-real-token',
        TELEGRAM_API_BASE_URL: fake.url,
      };
      return await withServerKey(
        serverEnv,
        'bench deliveries',
        ['messages:send'],
        async (server, { token, key }) => {
          const context = { api: server.api, token, key, fake };
          const accepting = await measureAccepting(label, context, DELIVERIES);
          const sending = await measureSending(label, context, DELIVERIES);
          return { label, accepting, sending };
        },
      );
    } finally {
      await closeFake(fake);
    }
  });
  reportDeliveries(runs, { ...DELIVERIES, targets: TARGETS });
}
