import { Readable } from 'node:stream';
import { metricsExportParamsSchema, metricsExportQuerySchema } from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/auth.js';

/**
 * What a Metrics panel shows, as a file (docs/operators/metrics.md, "CSV exports"); whoever sees the panel
 * (metrics:read).
 */
export const metricsExportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/metrics/export/:panel.csv',
    {
      config: { permission: 'metrics:read' },
      schema: {
        tags: ['metrics'],
        summary:
          "A panel's rows over from..to, streamed as CSV: usage (by day, provider, model and feature), " +
          'top-chats, top-users (by cost) or integrations',
        params: metricsExportParamsSchema,
        querystring: metricsExportQuerySchema,
      },
    },
    async (request, reply) => {
      const file = await app.services.metricsExport.export(
        actorOf(request),
        request.params.panel,
        request.query,
        request.log,
        request.method !== 'HEAD',
      );
      // Bytes, not objects: a page's text at a time, the next read once the client has taken it in.
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .send(Readable.from(file.chunks, { objectMode: false }));
    },
  );
};
