import { metricsExportParamsSchema, metricsExportQuerySchema } from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendDownload } from '../../plugins/download.js';
import { routeOptions } from '../../plugins/route-options.js';
import { actorOf } from '../../plugins/auth.js';

/**
 * What a Metrics panel shows, as a file (docs/operators/metrics.md, "CSV exports"); whoever sees the panel
 * (metrics:read).
 */
export const metricsExportRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = routeOptions(['metrics'], 'metrics:read');
  app.get(
    '/metrics/export/:panel.csv',
    read({
      summary:
        "A panel's rows over from..to, streamed as CSV: usage (by day, provider, model and feature), " +
        'top-chats, top-users (by cost) or integrations',
      params: metricsExportParamsSchema,
      querystring: metricsExportQuerySchema,
    }),
    async (request, reply) => {
      const file = await app.services.metricsExport.export(
        actorOf(request),
        request.params.panel,
        request.query,
        request.log,
        request.method !== 'HEAD',
      );
      return sendDownload(reply, file);
    },
  );
};
