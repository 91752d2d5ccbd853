import { variableInputSchema, variableSchema, variableUpdateSchema } from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { resourceRoutes } from '../../../plugins/resource-routes.js';
import { routeOptions } from '../../../plugins/route-options.js';

/**
 * The variables catalogue (docs/bot-developers/deliveries.md, "Message templates"): it is read with
 * templates:read and edited with templates:write.
 */
export const variablesRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = routeOptions(['messaging'], 'templates:read');
  const write = routeOptions(['messaging'], 'templates:write');
  const service = app.services.messaging.variables;
  const variables = resourceRoutes(app, { path: '/variables', item: variableSchema, service, read, write });

  variables.list(
    { summary: 'The variable catalogue, by category and name', response: z.array(variableSchema) },
    () => service.list(),
  );
  variables.create({ summary: 'Add a variable', body: variableInputSchema });
  variables.update({
    summary: 'Change a variable; fields left out keep their values',
    body: variableUpdateSchema,
  });
  variables.remove({ summary: 'Remove a variable from the catalogue' });
};
