import { changeMarkersQuerySchema, changeMarkersSchema } from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routeOptions } from '../../plugins/route-options.js';

/**
 * Whoever reads the charts (metrics:read) sees what changed on them
 * (docs/operators/metrics.md, "Change markers").
 */
export const changeMarkersRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = routeOptions(['metrics'], 'metrics:read');
  app.get(
    '/metrics/changes',
    read({
      summary:
        'Configuration, template, budget and price changes over from..to, oldest first, for chart markers',
      querystring: changeMarkersQuerySchema,
      response: changeMarkersSchema,
    }),
    (request) => app.services.changeMarkers.list(request.query),
  );
};
