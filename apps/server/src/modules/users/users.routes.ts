import {
  createUserSchema,
  idParamSchema,
  okResponseSchema,
  updateUserSchema,
  userListQuerySchema,
  userListResponseSchema,
  userSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/auth.js';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['users'];
  app.get(
    '/users',
    {
      config: { permission: 'users:read' },
      schema: {
        tags,
        summary: 'Users, a page at a time; search matches username, email and name without case',
        querystring: userListQuerySchema,
        response: { 200: userListResponseSchema },
      },
    },
    (request) => app.services.users.list(request.query),
  );
  app.get(
    '/users/:id',
    {
      config: { permission: 'users:read' },
      schema: { tags, summary: 'One user', params: idParamSchema, response: { 200: userSchema } },
    },
    (request) => app.services.users.get(request.params.id),
  );
  app.post(
    '/users',
    {
      config: { permission: 'users:write' },
      schema: { tags, summary: 'Create a user', body: createUserSchema, response: { 201: userSchema } },
    },
    async (request, reply) =>
      reply.status(201).send(await app.services.users.create(actorOf(request), request.body)),
  );
  app.put(
    '/users/:id',
    {
      config: { permission: 'users:write' },
      schema: {
        tags,
        summary: 'Change a user’s email, name, roles or active state',
        params: idParamSchema,
        body: updateUserSchema,
        response: { 200: userSchema },
      },
    },
    (request) => app.services.users.update(actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/users/:id',
    {
      config: { permission: 'users:write' },
      schema: {
        tags,
        summary: 'Delete a user; ends their sessions',
        params: idParamSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await app.services.users.remove(actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );
};
