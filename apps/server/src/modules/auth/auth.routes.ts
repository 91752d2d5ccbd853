import {
  changePasswordSchema,
  loginRequestSchema,
  okResponseSchema,
  profileSchema,
  refreshRequestSchema,
  refreshResponseSchema,
  sessionUserSchema,
  signInResponseSchema,
  twoFactorVerifyRequestSchema,
  twoFactorVerifyResponseSchema,
  updateProfileSchema,
} from '@lumi/contract';
import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ForbiddenError, UnauthenticatedError } from '../../lib/errors.js';
import { routeOptions } from '../../plugins/route-options.js';
import { actorOf, bearerToken, principalOf, signedInActor } from '../../plugins/auth.js';
import type { IssuedTokens } from './auth.service.js';

/**
 * The sign-in routes take a few short fields and anyone may call them, so their bodies are kept small: a
 * megabyte of JSON (the server's default limit) costs a tenth of a second to parse before it is refused.
 */
export const SIGN_IN_BODY_LIMIT_BYTES = 8 * 1024;

export const REFRESH_COOKIE = 'lumi_refresh';
const COOKIE_PATH = '/api/auth';
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Secure everywhere except plain http to this machine, where browsers would drop a Secure cookie. */
function cookieIsSecure(request: FastifyRequest): boolean {
  return request.protocol === 'https' || !LOCAL_HOSTS.has(request.hostname);
}

/**
 * The refresh cookie travels with any request the browser makes to this site, including a form another
 * site submits (a `text/plain` POST needs no CORS preflight). The routes that read or set it therefore
 * refuse requests a browser marks as coming from another origin (OWASP CSRF Prevention Cheat Sheet:
 * Fetch Metadata, then Origin against Host). Scripts send neither header and are not affected.
 */
function refuseCrossOrigin(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) {
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  let crossOrigin: boolean;
  if (site !== undefined) {
    crossOrigin = site !== 'same-origin' && site !== 'none';
  } else if (origin !== undefined) {
    crossOrigin = origin === 'null' || URL.parse(origin)?.host !== request.host;
  } else {
    crossOrigin = false;
  }
  done(
    crossOrigin
      ? new ForbiddenError('This request came from another site; sign in and out from the console itself')
      : undefined,
  );
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  // Only these routes read or set the refresh cookie; elsewhere parsing cookies would be wasted work.
  await app.register(cookie);
  const open = routeOptions(['auth'], 'public');
  const signedIn = routeOptions(['auth'], 'authenticated');
  // What a user with a pending action (a temporary password, two-factor set-up) may still reach.
  const evenPending = routeOptions(['auth'], 'authenticated', {
    allowPending: ['password_change', 'two_factor_setup'],
  });
  const changingPassword = routeOptions(['auth'], 'authenticated', { allowPending: ['password_change'] });
  // The routes that sign in take a few short fields; they and logout read or set the refresh cookie.
  const signIn = { bodyLimit: SIGN_IN_BODY_LIMIT_BYTES, onRequest: refuseCrossOrigin };
  const sessionMaxAge = app.sessionSeconds;

  function answer(request: FastifyRequest, reply: FastifyReply, issued: IssuedTokens, inBody: boolean) {
    void reply.setCookie(REFRESH_COOKIE, issued.refreshToken, {
      httpOnly: true,
      sameSite: 'strict',
      secure: cookieIsSecure(request),
      path: COOKIE_PATH,
      maxAge: sessionMaxAge,
    });
    const { refreshToken, ...rest } = issued;
    return inBody ? { ...rest, refresh_token: refreshToken } : rest;
  }

  app.post(
    '/auth/login',
    {
      ...open({
        summary: 'Sign in',
        description:
          'Returns a 15-minute access token and sets the refresh token as an HttpOnly cookie. Clients that are not ' +
          'browsers pass `refresh_token_in_body: true` to receive it in the body instead. A user with two-factor ' +
          'sign-in gets `{two_factor_required: true, challenge, expires_in}` and no token: POST the challenge ' +
          'with a code to /api/auth/2fa/verify. A user who must first change a temporary password or set up ' +
          'two-factor sign-in gets tokens with `password_change_required` or `two_factor_setup_required`; ' +
          'until done, every other route answers 403 with that error code.',
        body: loginRequestSchema.extend({ refresh_token_in_body: z.boolean().optional() }),
        response: signInResponseSchema,
      }),
      ...signIn,
    },
    async (request, reply) => {
      const result = await app.services.auth.login(actorOf(request), request.body);
      if ('two_factor_required' in result) return result;
      return answer(request, reply, result, request.body.refresh_token_in_body === true);
    },
  );

  app.post(
    '/auth/2fa/verify',
    {
      ...open({
        summary:
          'Sign in, second step: the challenge with a code from the authenticator app or a recovery code',
        description:
          'Completes the sign-in as /api/auth/login does (tokens, refresh cookie). Exactly one of `code` and ' +
          '`recovery_code`. A wrong or already used code answers 401 `invalid_credentials` and the challenge ' +
          'stays usable until it expires (5 minutes); an expired or used challenge answers 401 ' +
          '`challenge_expired` (sign in again). Attempts are throttled like passwords (429 with Retry-After).',
        body: twoFactorVerifyRequestSchema,
        response: twoFactorVerifyResponseSchema,
      }),
      ...signIn,
    },
    async (request, reply) => {
      const issued = await app.services.auth.verifySecondFactor(actorOf(request), request.body);
      return answer(request, reply, issued, request.body.refresh_token_in_body === true);
    },
  );

  app.post(
    '/auth/refresh',
    {
      ...open({
        summary:
          'Exchange the refresh token (cookie or body) for a new access token; rotates the refresh token',
        body: refreshRequestSchema,
        response: refreshResponseSchema,
      }),
      ...signIn,
    },
    async (request, reply) => {
      const fromBody = request.body?.refresh_token;
      const token = fromBody ?? request.cookies[REFRESH_COOKIE];
      if (!token) throw new UnauthenticatedError('Your session has ended. Sign in again.', 'session_expired');
      const issued = await app.services.auth.refresh(actorOf(request), token);
      return answer(request, reply, issued, fromBody !== undefined);
    },
  );

  app.post(
    '/auth/logout',
    {
      ...open({ summary: 'Sign out: revokes the session and clears the cookie', response: okResponseSchema }),
      onRequest: refuseCrossOrigin,
    },
    async (request, reply) => {
      const token = bearerToken(request);
      const principal = token ? await app.services.auth.authenticate(token) : null;
      await app.services.auth.logout(
        { ...actorOf(request), id: principal?.userId ?? null, username: principal?.username ?? null },
        { sessionId: principal?.sessionId, refreshToken: request.cookies[REFRESH_COOKIE] },
      );
      void reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
      return { ok: true as const };
    },
  );

  app.get(
    '/auth/me',
    evenPending({ summary: 'The signed-in user with roles and permissions', response: sessionUserSchema }),
    (request) => app.services.auth.me(principalOf(request).userId),
  );

  app.get(
    '/auth/profile',
    evenPending({ summary: 'The signed-in user’s profile', response: profileSchema }),
    (request) => app.services.accounts.profile(principalOf(request).userId),
  );

  app.put(
    '/auth/profile',
    signedIn({
      summary: 'Change the signed-in user’s name or email (the username cannot change)',
      body: updateProfileSchema,
      response: profileSchema,
    }),
    (request) => app.services.accounts.updateProfile(signedInActor(request), request.body),
  );

  app.post(
    '/auth/change-password',
    changingPassword({
      summary:
        'Change the password; ends every other session. Also how a temporary password an admin set is replaced',
      body: changePasswordSchema,
      response: okResponseSchema,
    }),
    async (request) => {
      await app.services.auth.changePassword(
        signedInActor(request),
        principalOf(request).sessionId,
        request.body,
      );
      return { ok: true as const };
    },
  );
};
