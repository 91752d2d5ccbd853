import { changeMarkersQuerySchema, changeMarkersSchema } from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * Whoever reads the charts (metrics:read) sees what changed on them
 * (docs/operators/metrics.md, "Change markers").
 */
export const changeMarkersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/metrics/changes',
    {
      config: { permission: 'metrics:read' },
      schema: {
        tags: ['metrics'],
        summary:
          'Configuration, template, budget and price changes over from..to, oldest first, for chart markers',
        querystring: changeMarkersQuerySchema,
        response: { 200: changeMarkersSchema },
      },
    },
    (request) => app.services.changeMarkers.list(request.query),
  );
};
