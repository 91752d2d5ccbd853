import {
  idParamSchema,
  okResponseSchema,
  roleInputSchema,
  roleListResponseSchema,
  roleSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/auth.js';

export const rolesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['roles'];
  app.get(
    '/roles',
    {
      config: { permission: 'users:read' },
      schema: {
        tags,
        summary: 'All roles with their permissions',
        response: { 200: roleListResponseSchema },
      },
    },
    () => app.services.roles.list(),
  );
  app.post(
    '/roles',
    {
      config: { permission: 'users:write' },
      schema: { tags, summary: 'Create a custom role', body: roleInputSchema, response: { 201: roleSchema } },
    },
    async (request, reply) =>
      reply.status(201).send(await app.services.roles.create(actorOf(request), request.body)),
  );
  app.put(
    '/roles/:id',
    {
      config: { permission: 'users:write' },
      schema: {
        tags,
        summary: 'Change a custom role',
        params: idParamSchema,
        body: roleInputSchema,
        response: { 200: roleSchema },
      },
    },
    (request) => app.services.roles.update(actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/roles/:id',
    {
      config: { permission: 'users:write' },
      schema: {
        tags,
        summary: 'Delete a custom role that no user has',
        params: idParamSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await app.services.roles.remove(actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );
};
