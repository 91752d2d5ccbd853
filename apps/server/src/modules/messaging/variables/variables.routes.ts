import {
  okResponseSchema,
  variableInputSchema,
  variableParamsSchema,
  variableSchema,
  variableUpdateSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../../plugins/auth.js';

/**
 * The variables catalogue (docs/bot-developers/deliveries.md, "Message templates"): it is read with
 * templates:read and edited with templates:write.
 */
export const variablesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['messaging'];
  const service = app.services.messaging.variables;

  app.get(
    '/variables',
    {
      config: { permission: 'templates:read' },
      schema: {
        tags,
        summary: 'The variable catalogue, by category and name',
        response: { 200: z.array(variableSchema) },
      },
    },
    () => service.list(),
  );
  app.post(
    '/variables',
    {
      config: { permission: 'templates:write' },
      schema: {
        tags,
        summary: 'Add a variable',
        body: variableInputSchema,
        response: { 201: variableSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
  );
  app.put(
    '/variables/:id',
    {
      config: { permission: 'templates:write' },
      schema: {
        tags,
        summary: 'Change a variable; fields left out keep their values',
        params: variableParamsSchema,
        body: variableUpdateSchema,
        response: { 200: variableSchema },
      },
    },
    (request) => service.update(actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/variables/:id',
    {
      config: { permission: 'templates:write' },
      schema: {
        tags,
        summary: 'Remove a variable from the catalogue',
        params: variableParamsSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await service.remove(actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );
};
