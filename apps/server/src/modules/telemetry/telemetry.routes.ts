import { INGEST_LIMITS, ingestRequestSchema, ingestResponseSchema } from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const telemetryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/ingest/events',
    {
      // Bots only: an API key with the ingest:write scope; users are refused (plugins/auth.ts).
      config: { permission: 'api-key', apiKeyScope: 'ingest:write' },
      bodyLimit: INGEST_LIMITS.maxBodyBytes,
      schema: {
        tags: ['bot'],
        summary:
          'Report telemetry: up to 1,000 events or 1 MB; each event is accepted, counted as a duplicate ' +
          'or rejected on its own, and the answer tells the bot whether a token budget is exhausted',
        body: ingestRequestSchema,
        response: { 200: ingestResponseSchema },
      },
    },
    (request) => app.services.telemetry.ingest(request.body.events),
  );
};
