// How the demo's simulated bot (simulated-bot.mjs) reaches Lumi, slot by slot: its events through the
// ingestion API, the calls of its OpenTelemetry-instrumented models as OTLP spans (otlp-reporter.mjs), and
// the messages it asks Lumi to send through the deliveries API. Live, it asks the allowance before each LLM
// call (docs/bot-developers/limits.md) and leaves out the calls it is refused, as a bot does.
import { ApiError } from '../lib/lumi-api.mjs';
import { createOtlpReporter } from './otlp-reporter.mjs';
import { api } from './settings.mjs';
import { deliveriesOfSlot, eventsOfSlot, otlpEncodingOf } from './simulated-bot.mjs';
import { DemoStop, sleep, stopping } from './stopping.mjs';

const BATCH_SIZE = 1000;

/** Sends one batch, retrying network errors and 5xx (the ids make a retry safe); throws on anything else. */
async function send(apiKey, events) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await api.ingest(apiKey, events, stopping.signal);
    } catch (error) {
      if (stopping.signal.aborted) throw new DemoStop();
      const retryable = !(error instanceof ApiError) || error.status >= 500;
      if (!retryable || attempt >= 5) throw error;
      await sleep(500 * 2 ** attempt, stopping.signal);
    }
  }
}

/** Reports the slots [from, to) live: their events (the LLM calls the limits allow), then their messages. */
export async function reportLive(apiKey, from, to, options, refused) {
  const totals = await sendSlots(apiKey, from, to, { ...options, askAllowance: true });
  for (let slot = from; slot < to; slot += 1) await queueMessages(apiKey, slot, options, refused);
  return totals;
}

/** The OpenTelemetry-instrumented part of the bot, one per API key. */
const otlpReporters = new Map();
function otlpReporter(apiKey) {
  if (!otlpReporters.has(apiKey))
    otlpReporters.set(apiKey, createOtlpReporter({ baseUrl: api.baseUrl, apiKey }));
  return otlpReporters.get(apiKey);
}

/** Sends its calls as OTLP spans in each encoding; a failed export is told once and passed over. */
async function sendSpans(apiKey, spans, totals) {
  for (const [encoding, events] of Object.entries(spans)) {
    try {
      totals.spans += await otlpReporter(apiKey).report(events, encoding);
    } catch (error) {
      if (stopping.signal.aborted) throw new DemoStop();
      if (!totals.spanError) process.stderr.write(`\nOTLP export failed: ${error.message}\n`);
      totals.spanError = true;
    }
  }
}

/**
 * Whether the limits allow the LLM call (POST /api/bot/allowance). When Lumi cannot answer, the call goes
 * ahead, as the SDK's default (fail open) has it.
 */
async function allowed(apiKey, { chat_id, user_id, feature }) {
  try {
    const answer = await api.request('POST', '/api/bot/allowance', {
      token: apiKey,
      body: { chat_id, user_id, feature },
      signal: stopping.signal,
    });
    return answer.allowed;
  } catch {
    if (stopping.signal.aborted) throw new DemoStop();
    return true;
  }
}

/**
 * Sends the events of slots [from, to) in batches of up to BATCH_SIZE, the calls of OpenTelemetry-
 * instrumented models as OTLP spans (otlpEncodingOf); reports progress per batch. With `askAllowance`, an
 * LLM call the limits refuse is not made, so not reported (counted in `denied`).
 */
export async function sendSlots(apiKey, from, to, options, onBatch) {
  let batch = [];
  let spans = { protobuf: [], json: [] };
  const totals = { accepted: 0, duplicates: 0, rejected: 0, denied: 0, spans: 0, budgets: [] };
  const flush = async (slot) => {
    if (batch.length === 0 && spans.protobuf.length + spans.json.length === 0) return;
    if (batch.length > 0) {
      const result = await send(apiKey, batch);
      totals.accepted += result.accepted;
      totals.duplicates += result.duplicates;
      totals.rejected += result.rejected.length;
      totals.budgets = result.budgets;
      if (result.rejected.length > 0 && totals.rejected === result.rejected.length) {
        process.stderr.write(`\nThe server rejected an event: ${result.rejected[0].detail}\n`);
      }
    }
    await sendSpans(apiKey, spans, totals);
    batch = [];
    spans = { protobuf: [], json: [] };
    onBatch?.(slot, totals);
  };
  for (let slot = from; slot < to; slot += 1) {
    for (const event of eventsOfSlot(slot, options)) {
      if (options.askAllowance && event.type === 'llm_call' && !(await allowed(apiKey, event))) {
        totals.denied += 1;
        continue;
      }
      const encoding = otlpEncodingOf(event);
      if (encoding) spans[encoding].push(event);
      else batch.push(event);
      if (batch.length + spans.protobuf.length + spans.json.length >= BATCH_SIZE) await flush(slot);
    }
  }
  await flush(to - 1);
  return totals;
}

/**
 * Asks Lumi to send the slot's messages. One that fails is left (the next come soon): a network error or
 * 5xx is passed over silently, anything else (the operator renamed or deleted a demo template, say) is
 * told once.
 */
async function queueMessages(apiKey, slot, options, refused) {
  for (const delivery of deliveriesOfSlot(slot, options)) {
    try {
      await api.queueDelivery(apiKey, delivery, stopping.signal);
    } catch (error) {
      if (stopping.signal.aborted) throw new DemoStop();
      if (!(error instanceof ApiError) || error.status >= 500 || refused.has(error.message)) continue;
      refused.add(error.message);
      process.stderr.write(
        `\nThe demo bot could not queue a '${delivery.template_name}' message: ${error.message}\n`,
      );
    }
  }
}
