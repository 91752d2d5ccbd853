import {
  okResponseSchema,
  twoFactorDisableRequestSchema,
  twoFactorEnableRequestSchema,
  twoFactorEnableResponseSchema,
  twoFactorSetupResponseSchema,
  twoFactorStatusSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routeOptions } from '../../plugins/route-options.js';
import { principalOf, signedInActor } from '../../plugins/auth.js';

/**
 * Setting up and turning off two-factor sign-in (docs/operators/security.md, "Two-factor sign-in"); the
 * sign-in's second step is in auth.routes.ts.
 */
export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const signedIn = routeOptions(['auth'], 'authenticated');
  // A user whose role requires two-factor sign-in reaches these (and only these) before setting it up.
  const enrolment = routeOptions(['auth'], 'authenticated', { allowPending: ['two_factor_setup'] });

  app.get(
    '/auth/2fa',
    enrolment({ summary: 'The signed-in user’s two-factor sign-in', response: twoFactorStatusSchema }),
    (request) => app.services.twoFactor.status(principalOf(request).userId),
  );

  app.post(
    '/auth/2fa/setup',
    enrolment({
      summary: 'Start setting up two-factor sign-in: a new secret for an authenticator app',
      description:
        'The secret stays pending (and replaces any pending before) until /api/auth/2fa/enable confirms it ' +
        'with a code; it is never shown again after that. 409 `conflict` when two-factor sign-in is on already.',
      response: twoFactorSetupResponseSchema,
    }),
    (request) => app.services.twoFactor.setup(signedInActor(request)),
  );

  app.post(
    '/auth/2fa/enable',
    enrolment({
      summary:
        'Turn two-factor sign-in on with a code from the pending secret; answers ten recovery codes, once',
      description:
        '422 on `code` for a wrong code; 409 `conflict` without a pending setup or when it is on already.',
      body: twoFactorEnableRequestSchema,
      response: twoFactorEnableResponseSchema,
    }),
    (request) => app.services.twoFactor.enable(signedInActor(request), request.body.code),
  );

  app.post(
    '/auth/2fa/disable',
    signedIn({
      summary: 'Turn two-factor sign-in off with the password and a code or a recovery code',
      description:
        '422 on `password`, `code` or `recovery_code` when wrong; 403 when a role requires two-factor ' +
        'sign-in; 409 when it is off; throttled like sign-in (429).',
      body: twoFactorDisableRequestSchema,
      response: okResponseSchema,
    }),
    async (request) => {
      await app.services.twoFactor.disable(signedInActor(request), request.body);
      return { ok: true as const };
    },
  );
};
