import { sourceOf } from './ingest-source.js';
import { INGEST_LIMITS } from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.js';
import {
  encodeBadRequest,
  encodeTraceResponse,
  OTLP_CONTENT_TYPES,
  otlpCodingOf,
  otlpEncodingOf,
} from './otlp-wire.js';

/**
 * OTLP/HTTP (https://opentelemetry.io/docs/specs/otlp/#otlphttp-request): the body is read as bytes
 * whatever its type, so the route itself answers 415 for a type it does not read and 400, in the
 * request's own encoding, for a body it cannot decode.
 */
export const otlpRoutes: FastifyPluginAsyncZod = async (app) => {
  const otlp = app.services.otlp;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/otlp/v1/traces',
    {
      // Bots only, with the same key and scope as the JSON ingestion API (plugins/auth.ts).
      config: { permission: 'api-key', apiKeyScope: 'ingest:write' },
      bodyLimit: INGEST_LIMITS.maxBodyBytes,
      schema: {
        tags: ['bot'],
        summary: 'Report LLM calls as OpenTelemetry GenAI spans (OTLP/HTTP, protobuf or JSON)',
        description:
          'An OTLP/HTTP trace export (`ExportTraceServiceRequest`) as `application/x-protobuf` or ' +
          '`application/json`, optionally gzipped, at most 1 MB uncompressed and 1,000 GenAI spans. Spans ' +
          'with `gen_ai.provider.name` (or `gen_ai.system`) are stored as `llm_call` events through the ' +
          'ingestion API; other spans are ignored; a span re-sent with the same trace and span id is ' +
          'counted once. Answers 200 with an `ExportTraceServiceResponse` in the request encoding (its ' +
          '`partialSuccess` counts and explains rejected spans), 400 with a `google.rpc.Status` for a body ' +
          'that cannot be decoded, 415 for another media type or content encoding. ' +
          'docs/bot-developers/otlp.md lists the attribute mapping.',
      },
    },
    async (request, reply) => {
      const encoding = otlpEncodingOf(request.headers['content-type']);
      if (!encoding) {
        throw new AppError(
          415,
          'unsupported_media_type',
          `Send the spans as ${OTLP_CONTENT_TYPES.protobuf} or ${OTLP_CONTENT_TYPES.json} (OTLP/HTTP)`,
        );
      }
      const coding = otlpCodingOf(request.headers['content-encoding']);
      if (!coding) {
        throw new AppError(415, 'unsupported_media_type', 'Send the body uncompressed or with gzip');
      }
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      // The route's guard let only an API key through (plugins/auth.ts).
      const result = await otlp.export(sourceOf(request), body, encoding, coding);
      void reply.type(OTLP_CONTENT_TYPES[encoding]);
      if (!result.ok) {
        return reply.status(400).send(encodeBadRequest(encoding, result.reason, String(request.id)));
      }
      return reply.send(encodeTraceResponse(encoding, result.partial));
    },
  );
};
