import {
  authSessionListResponseSchema,
  okResponseSchema,
  revokedSessionsResponseSchema,
  sessionIdParamSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routeOptions } from '../../plugins/route-options.js';
import { principalOf, signedInActor } from '../../plugins/auth.js';

/** The signed-in user's own sessions (docs/operators/security.md, "Sessions"). */
export const sessionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const signedIn = routeOptions(['auth'], 'authenticated');

  app.get(
    '/auth/sessions',
    signedIn({
      summary: 'The signed-in user’s sessions (devices), newest first; `current` marks this one',
      response: authSessionListResponseSchema,
    }),
    async (request) => {
      const principal = principalOf(request);
      return { sessions: await app.services.sessionControl.list(principal.userId, principal.sessionId) };
    },
  );

  app.delete(
    '/auth/sessions/:id',
    signedIn({
      summary: 'Sign out one of the user’s sessions: its refresh and access tokens stop working at once',
      description: '404 when the session is not the user’s or has ended already.',
      params: sessionIdParamSchema,
      response: okResponseSchema,
    }),
    async (request) => {
      await app.services.sessionControl.revoke(signedInActor(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/auth/sessions/revoke-others',
    signedIn({
      summary: 'Sign out every session of the user but this one',
      response: revokedSessionsResponseSchema,
    }),
    async (request) => ({
      revoked: await app.services.sessionControl.revokeOthers(
        signedInActor(request),
        principalOf(request).sessionId,
      ),
    }),
  );
};
