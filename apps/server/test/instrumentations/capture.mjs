// CAPTURE mode of the instrumentation bots: runs each named bot (bots/<name>.cjs or .mjs) against the LLM
// API stand-in with LUMI_OTLP_URL pointing at a tiny local OTLP/HTTP collector, and writes what the bot
// exported to fixtures/<name>.json as one OTLP/JSON ExportTraceServiceRequest
// (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding: hex ids, int64 as decimal strings,
// enums as numbers): every span with its name, ids, parent, kind, times, status, events and attributes.
// The fixtures feed unit tests of the span mapping (decodeTraceRequest(body, 'json') reads them).
//
//   node apps/server/test/instrumentations/capture.mjs                # every bot
//   node apps/server/test/instrumentations/capture.mjs otel-openai   # one
import { readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LlmApiStandIn } from '@lumi/test-support/llm-api-stand-in';
import { NodeProcess } from '@lumi/test-support/server-process';
import otlpRoot from '@opentelemetry/otlp-transformer/build/src/generated/root.js';
import * as prettier from 'prettier';

const here = path.dirname(fileURLToPath(import.meta.url));
const botsDir = path.join(here, 'bots');
const fixturesDir = path.join(here, 'fixtures');
const { ExportTraceServiceRequest, ExportTraceServiceResponse } =
  otlpRoot.opentelemetry.proto.collector.trace.v1;

/** The bot scripts: every .cjs/.mjs under bots/ but the shared scenario and tracing modules. */
export function botScripts() {
  return readdirSync(botsDir)
    .filter((file) => /\.(cjs|mjs)$/.test(file) && !/^(scenario|tracing)\./.test(file))
    .map((file) => ({ name: file.replace(/\.(cjs|mjs)$/, ''), script: path.join(botsDir, file) }));
}

const hex = (bytes) => Buffer.from(bytes ?? []).toString('hex');

/** A decoded protobuf request as OTLP/JSON: ids in hex, the rest as protobufjs's JSON mapping gives it. */
function asOtlpJson(message) {
  const request = ExportTraceServiceRequest.toObject(message, { longs: String, enums: Number });
  for (const resource of request.resourceSpans ?? []) {
    for (const scope of resource.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        span.traceId = hex(span.traceId);
        span.spanId = hex(span.spanId);
        if (span.parentSpanId?.length) span.parentSpanId = hex(span.parentSpanId);
        else delete span.parentSpanId;
        for (const link of span.links ?? [])
          Object.assign(link, { traceId: hex(link.traceId), spanId: hex(link.spanId) });
      }
    }
  }
  return request;
}

/** A collector of OTLP/HTTP trace exports (protobuf or JSON) at /v1/traces, keeping each request. */
export async function startCollector() {
  const exports = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const json = /json/.test(req.headers['content-type'] ?? '');
      exports.push(
        json ? JSON.parse(body.toString('utf8')) : asOtlpJson(ExportTraceServiceRequest.decode(body)),
      );
      if (json) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else {
        const answer = ExportTraceServiceResponse.encode(ExportTraceServiceResponse.create({})).finish();
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(Buffer.from(answer));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1/traces`,
    /** Every export received, as one request: their resourceSpans one after another. */
    request: () => ({ resourceSpans: exports.flatMap((e) => e.resourceSpans ?? []) }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Runs a bot script to its end with the stand-in and Lumi (or a collector) it is given. */
export async function runBot(script, { llmApiUrl, otlpUrl, apiKey }) {
  const bot = await NodeProcess.start(script, {
    name: path.basename(script),
    env: { LLM_API_URL: llmApiUrl, LUMI_OTLP_URL: otlpUrl, LUMI_API_KEY: apiKey },
  });
  const code = await bot.exited;
  if (code !== 0) throw new Error(`${path.basename(script)} exited with ${code}:\n${bot.output()}`);
  return bot.output();
}

async function capture(names) {
  const bots = botScripts().filter((bot) => names.length === 0 || names.includes(bot.name));
  if (bots.length === 0) throw new Error(`No bot named ${names.join(', ')}`);
  for (const bot of bots) {
    const standIn = await LlmApiStandIn.start();
    const collector = await startCollector();
    try {
      await runBot(bot.script, { llmApiUrl: standIn.url, otlpUrl: collector.url, apiKey: 'lumi_capture' });
      const request = collector.request();
      const file = path.join(fixturesDir, `${bot.name}.json`);
      // Formatted as the repository's Prettier settings have it, so `npm run lint` passes on the fixtures.
      const options = { ...(await prettier.resolveConfig(file)), filepath: file };
      writeFileSync(file, await prettier.format(JSON.stringify(request), options));
      const spans = request.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
      console.log(`${bot.name}: ${spans.length} spans for ${standIn.calls.length} API calls → ${file}`);
    } finally {
      await collector.close();
      await standIn.close();
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  capture(process.argv.slice(2)).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
