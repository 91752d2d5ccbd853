import {
  authSessionListResponseSchema,
  createUserSchema,
  idParamSchema,
  okResponseSchema,
  passwordResetRequestSchema,
  revokedSessionsResponseSchema,
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

  app.get(
    '/users/:id/sessions',
    {
      config: { permission: 'users:read' },
      schema: {
        tags,
        summary: 'A user’s signed-in sessions, newest first',
        params: idParamSchema,
        response: { 200: authSessionListResponseSchema },
      },
    },
    async (request) => ({
      sessions: await app.services.userSecurity.listSessions(
        request.params.id,
        request.principal?.sessionId ?? null,
      ),
    }),
  );
  app.post(
    '/users/:id/sessions/revoke',
    {
      config: { permission: 'users:write' },
      schema: {
        tags,
        summary: 'Sign a user out everywhere: every session’s refresh and access tokens stop working at once',
        params: idParamSchema,
        response: { 200: revokedSessionsResponseSchema },
      },
    },
    async (request) => ({
      revoked: await app.services.userSecurity.revokeSessions(actorOf(request), request.params.id),
    }),
  );
  app.post(
    '/users/:id/2fa/reset',
    {
      config: { permission: 'users:write' },
      schema: {
        tags,
        summary: 'Reset a user’s two-factor sign-in (a lost authenticator): off, recovery codes gone',
        description:
          'A user whose role requires it is sent to set it up again at once. 403 for your own account.',
        params: idParamSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await app.services.userSecurity.resetTwoFactor(actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );
  app.post(
    '/users/:id/password-reset',
    {
      config: { permission: 'users:write' },
      schema: {
        tags,
        summary: 'Set a temporary password: the user’s sessions end and they must change it at next sign-in',
        description: '422 on `temporary_password` for a weak one; 403 for your own account.',
        params: idParamSchema,
        body: passwordResetRequestSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await app.services.userSecurity.resetPassword(actorOf(request), request.params.id, request.body);
      return { ok: true as const };
    },
  );
};
