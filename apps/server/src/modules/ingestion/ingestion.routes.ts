import {
  idParamSchema,
  ignoredSpansSchema,
  INGEST_LIMITS,
  ingestRequestSchema,
  ingestResponseSchema,
} from '@lumi/contract';
import { validatorCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sourceOf } from './ingest-source.js';
import { otlpRoutes } from './otlp.routes.js';

export const ingestionRoutes: FastifyPluginAsyncZod = async (app) => {
  // OTLP reads its body as bytes: its own content-type parsers, in a plugin context of its own.
  await app.register(otlpRoutes);

  app.post(
    '/ingest/events',
    {
      // Bots only: an API key with the ingest:write scope; users are refused (plugins/auth.ts).
      config: { permission: 'api-key', apiKeyScope: 'ingest:write' },
      bodyLimit: INGEST_LIMITS.maxBodyBytes,
      // Each event is judged on its own, control characters included (ingest-batch.ts), so one bad
      // event never refuses the whole batch. (Fastify types a route's compiler by its whole schema object,
      // while the zod compiler takes one part's schema at a time: the cast bridges the two.)
      validatorCompiler: validatorCompiler as never,
      schema: {
        tags: ['bot'],
        summary:
          'Report telemetry: up to 1,000 events or 1 MB; each event is accepted, counted as a duplicate ' +
          'or rejected on its own, and the answer tells the bot whether a token budget is exhausted',
        body: ingestRequestSchema,
        response: { 200: ingestResponseSchema },
      },
    },
    (request) => app.services.ingestion.ingest(request.body.events, sourceOf(request)),
  );

  app.get(
    '/admin/api-keys/:id/ignored-spans',
    {
      // Beside the keys themselves: for signed-in admins only (docs/bot-developers/otlp.md, "Ignored spans").
      config: { permission: 'admin:keys:write' },
      schema: {
        tags: ['api keys'],
        summary: "The latest spans of a key's OTLP exports that were not stored as LLM calls, and why",
        params: idParamSchema,
        response: { 200: ignoredSpansSchema },
      },
    },
    async (request) => {
      await app.services.apiKeys.get(request.params.id);
      return app.services.otlp.ignoredSpans(request.params.id);
    },
  );
};
