// A load at a fixed rate for `npm run bench` (scripts/bench.mjs): POSTs sent on a schedule, one every 1/rate
// seconds whether or not the earlier ones were answered (an open loop, as many independent clients ask), over
// a pool of keep-alive connections; a request finding them all busy waits for one, and that wait counts in
// its latency (a connection per request instead drowns a busy machine in connecting).
// autocannon's `overallRate` does not give that: each of its connections sends its share of a second back to
// back as the second begins (lib/httpClient.js, reqsMadeThisSecond), so 2,000 a second arrive as one burst a
// second, and its correction for coordinated omission assumes requests ceil(1 / rate) = 1 ms apart on every
// connection. No dependency of ours sends at an even pace, so this does, with node:net alone: on a 2-core
// machine the load generator shares the cores with the server it measures, so each request is written as
// bytes made before the run, and an answer is only cut out of the stream (status line, Content-Length,
// body) and copied aside (answerStore); `onAnswer` sees the answers once the run is over. node:http's client took about as much
// CPU per request as the server's bare route, and its share showed up in every latency measured.
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { percentile } from './percentile.mjs';

/** A request without an answer by then counts as an error, so a stuck server cannot hold the run. */
const ANSWER_TIMEOUT_MS = 60_000;
const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length: *(\d+)/i;

const figures = (sorted) => ({
  p50: percentile(sorted, 50),
  p99: percentile(sorted, 99),
  max: sorted.at(-1) ?? 0,
});

/** The bytes of each request: the POST of `body` to `target` with `headers`, HTTP/1.1 with keep-alive. */
function requestBytes(target, headers, bodies) {
  const head = [
    `POST ${target.pathname} HTTP/1.1`,
    `host: ${target.host}`,
    'content-type: application/json',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  return bodies.map((body) => {
    const bytes = Buffer.from(body);
    return Buffer.concat([Buffer.from(`${head}\r\ncontent-length: ${bytes.length}\r\n\r\n`), bytes]);
  });
}

/** Bytes of the buffers the answers' bodies are copied into, each made when the last is full. */
const ANSWER_BUFFER_BYTES = 4 * 1024 * 1024;

/**
 * The answers of a run, at most `count`: each body copied into a buffer of ANSWER_BUFFER_BYTES, its status and
 * place in typed arrays. A body cut out of a socket's chunk keeps the whole chunk; kept as such, a run's
 * answers grew this process's heap until its full collections stopped it for up to 14 ms in the middle of a
 * run (`node --trace-gc`), and every answer arriving meanwhile counted that late.
 */
function answerStore(count) {
  const statuses = new Uint16Array(count);
  const buffers = [];
  const bufferOf = new Uint16Array(count);
  const starts = new Uint32Array(count);
  const lengths = new Uint32Array(count);
  let used = 0;
  let size = 0;
  return {
    get size() {
      return size;
    },
    add(status, body) {
      let last = buffers.at(-1);
      if (!last || used + body.length > last.length) {
        last = Buffer.allocUnsafeSlow(Math.max(ANSWER_BUFFER_BYTES, body.length));
        buffers.push(last);
        used = 0;
      }
      body.copy(last, used);
      statuses[size] = status;
      bufferOf[size] = buffers.length - 1;
      starts[size] = used;
      lengths[size] = body.length;
      used += body.length;
      size += 1;
    },
    status: (i) => statuses[i],
    text: (i) => buffers[bufferOf[i]].toString('utf8', starts[i], starts[i] + lengths[i]),
  };
}

/**
 * One keep-alive connection sending one request at a time: `send(bytes, done)` writes a request and calls
 * `done(error, status, body)` with its answer.
 */
function connection(target, onClose) {
  const socket = net.connect({ host: target.hostname, port: Number(target.port), noDelay: true });
  socket.setTimeout(ANSWER_TIMEOUT_MS);
  let pending = null;
  let closed = false;
  let buffered = Buffer.alloc(0);
  const answer = (error, status, body) => {
    const done = pending;
    pending = null;
    done?.(error, status, body);
  };
  socket.on('data', (chunk) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    const end = buffered.indexOf(HEADER_END);
    if (end < 0) return;
    const head = buffered.toString('latin1', 0, end);
    const declared = CONTENT_LENGTH.exec(head)?.[1];
    if (declared === undefined) {
      fail(new Error('an answer without Content-Length'));
      return;
    }
    const length = Number(declared);
    if (buffered.length < end + 4 + length) return;
    const status = Number(head.slice(9, 12));
    const body = buffered.subarray(end + 4, end + 4 + length);
    buffered = Buffer.alloc(0);
    answer(null, status, body);
  });
  const fail = (error) => {
    answer(error);
    if (closed) return;
    closed = true;
    socket.destroy();
    onClose();
  };
  socket.on('timeout', () => fail(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)));
  socket.on('error', (error) => fail(error));
  socket.on('close', () => fail(new Error('the server closed the connection')));
  return {
    send(bytes, done) {
      pending = done;
      socket.write(bytes);
    },
    close: () => socket.destroy(),
  };
}

/**
 * Sends `bodies.length` POSTs of `bodies` to `url` at `rate` a second over at most `connections` connections
 * and waits for every answer. `onAnswer(status, text)` sees each answer, after the run. A request due while
 * `maxInFlight` are unanswered is not sent (counted as skipped), so a server far behind is not buried.
 * Returns latencies in ms from sending (waiting for a free connection included) to the answer's last byte,
 * how late the requests left against their schedule (`lag`: this process's own delays, to be small beside
 * the latencies), the rates sent and answered, statuses and errors.
 */
export async function paced({ url, headers, bodies, rate, connections, maxInFlight, onAnswer }) {
  const target = new URL(url);
  const requests = requestBytes(target, headers, bodies);
  const interval = 1000 / rate;
  const latencies = new Float64Array(bodies.length);
  const lags = new Float64Array(bodies.length);
  const answers = answerStore(bodies.length);
  const errors = new Map();
  let answered = 0;
  let sentCount = 0;
  let inFlight = 0;
  let skipped = 0;
  let lastAnswer = 0;
  let allAnswered = () => {};

  const idle = [];
  let open = 0;
  /** Requests waiting for a free connection: their index and when they were sent. */
  const waiting = [];
  const start = performance.now() + 20;

  /** A new connection; when one fails, the next waiting request gets another. */
  const connect = () => {
    open += 1;
    const made = connection(target, () => {
      open -= 1;
      const at = idle.indexOf(made);
      if (at >= 0) idle.splice(at, 1);
      if (waiting.length > 0) release(connect());
    });
    return made;
  };

  const settle = (error, status, body, sent) => {
    inFlight -= 1;
    if (error) {
      errors.set(error.message, (errors.get(error.message) ?? 0) + 1);
    } else {
      lastAnswer = performance.now();
      latencies[answered] = lastAnswer - sent;
      answered += 1;
      answers.add(status, body);
    }
    if (inFlight === 0 && sentCount + skipped === bodies.length) allAnswered();
  };
  const dispatch = (pooled, index, sent) => {
    pooled.send(requests[index], (error, status, body) => {
      if (!error) release(pooled);
      settle(error, status, body, sent);
    });
  };
  const release = (pooled) => {
    const next = waiting.shift();
    if (next) dispatch(pooled, next.index, next.sent);
    else idle.push(pooled);
  };
  const send = (index, due) => {
    inFlight += 1;
    const sent = performance.now();
    lags[sentCount] = sent - due;
    sentCount += 1;
    const pooled = idle.pop() ?? (open < connections ? connect() : null);
    if (pooled) dispatch(pooled, index, sent);
    else waiting.push({ index, sent });
  };

  let next = 0;
  while (next < bodies.length) {
    const now = performance.now();
    // Every request due by now leaves now: a timer cannot wake every 0.5 ms, so a few go together.
    while (next < bodies.length && start + next * interval <= now) {
      if (inFlight >= maxInFlight) skipped += 1;
      else send(next, start + next * interval);
      next += 1;
    }
    if (next < bodies.length) await sleep(Math.max(0, start + next * interval - performance.now()));
  }
  const lastSent = performance.now();
  if (inFlight > 0) await new Promise((resolve) => (allAnswered = resolve));
  for (const pooled of idle) pooled.close();

  const statuses = new Map();
  for (let i = 0; i < answers.size; i += 1) {
    statuses.set(answers.status(i), (statuses.get(answers.status(i)) ?? 0) + 1);
    onAnswer(answers.status(i), answers.text(i));
  }
  return {
    sent: sentCount,
    skipped,
    answered,
    sentPerSecond: sentCount / ((lastSent - start) / 1000),
    answeredPerSecond: answered / ((lastAnswer - start) / 1000),
    latency: figures(latencies.subarray(0, answered).sort()),
    lag: figures(lags.subarray(0, sentCount).sort()),
    statuses: Object.fromEntries(statuses),
    errors: Object.fromEntries(errors),
  };
}
