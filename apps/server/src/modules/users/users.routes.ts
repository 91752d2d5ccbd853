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
import { resourceRoutes } from '../../plugins/resource-routes.js';
import { routeOptions } from '../../plugins/route-options.js';
import { actorOf } from '../../plugins/auth.js';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = routeOptions(['users'], 'users:read');
  const write = routeOptions(['users'], 'users:write');
  const service = app.services.users;
  const users = resourceRoutes(app, { path: '/users', item: userSchema, service, read, write });

  users.list(
    {
      summary: 'Users, a page at a time; search matches username, email and name without case',
      querystring: userListQuerySchema,
      response: userListResponseSchema,
    },
    (request) => service.list(request.query),
  );
  users.get({ summary: 'One user' });
  users.create({ summary: 'Create a user', body: createUserSchema });
  users.update({ summary: 'Change a user’s email, name, roles or active state', body: updateUserSchema });
  users.remove({ summary: 'Delete a user; ends their sessions' });

  app.get(
    '/users/:id/sessions',
    read({
      summary: 'A user’s signed-in sessions, newest first',
      params: idParamSchema,
      response: authSessionListResponseSchema,
    }),
    async (request) => ({
      sessions: await app.services.userSecurity.listSessions(
        request.params.id,
        request.principal?.sessionId ?? null,
      ),
    }),
  );
  app.post(
    '/users/:id/sessions/revoke',
    write({
      summary: 'Sign a user out everywhere: every session’s refresh and access tokens stop working at once',
      params: idParamSchema,
      response: revokedSessionsResponseSchema,
    }),
    async (request) => ({
      revoked: await app.services.userSecurity.revokeSessions(actorOf(request), request.params.id),
    }),
  );
  app.post(
    '/users/:id/2fa/reset',
    write({
      summary: 'Reset a user’s two-factor sign-in (a lost authenticator): off, recovery codes gone',
      description:
        'A user whose role requires it is sent to set it up again at once. 403 for your own account.',
      params: idParamSchema,
      response: okResponseSchema,
    }),
    async (request) => {
      await app.services.userSecurity.resetTwoFactor(actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );
  app.post(
    '/users/:id/password-reset',
    write({
      summary: 'Set a temporary password: the user’s sessions end and they must change it at next sign-in',
      description: '422 on `temporary_password` for a weak one; 403 for your own account.',
      params: idParamSchema,
      body: passwordResetRequestSchema,
      response: okResponseSchema,
    }),
    async (request) => {
      await app.services.userSecurity.resetPassword(actorOf(request), request.params.id, request.body);
      return { ok: true as const };
    },
  );
};
