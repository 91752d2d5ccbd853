import {
  API_KEY_PREFIX,
  hasPermission,
  type ApiKeyScope,
  type ErrorCode,
  type PendingAction,
  type Permission,
} from '@lumi/contract';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { ForbiddenError, UnauthenticatedError } from '../lib/errors.js';
import type { ApiKeyPrincipal } from '../modules/api-keys/api-keys.service.js';
import type { Actor } from '../modules/audit/audit.service.js';
import type { Principal } from '../modules/auth/auth.service.js';
import { DOCS_PREFIX } from './openapi.js';

/**
 * What a route needs: nothing, any signed-in user, one permission of the catalogue, or 'api-key': the
 * route is for bots only, reached with an API key holding the route's `apiKeyScope` and never by a user.
 */
export type RoutePermission = 'public' | 'authenticated' | 'api-key' | Permission;

export interface RouteEntry {
  method: string;
  url: string;
  permission: RoutePermission;
  apiKeyScope?: ApiKeyScope;
  allowPending?: PendingAction[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RoutePermission;
    /**
     * The API-key scope that opens this route to a bot's key (besides users holding `permission`); routes
     * without one refuse keys. Required with permission 'api-key'.
     */
    apiKeyScope?: ApiKeyScope;
    /**
     * The pending actions (docs/operators/security.md, "Temporary passwords" and "Two-factor sign-in") under
     * which a signed-in user may still call this route: a user who must change a temporary password or set up
     * two-factor sign-in reaches only the routes that let them do it.
     */
    allowPending?: PendingAction[];
  }
  interface FastifyRequest {
    /** The signed-in user; null for public routes and for requests made with an API key. */
    principal: Principal | null;
    /** The API key a bot's request was made with; null otherwise. */
    apiKey: ApiKeyPrincipal | null;
  }
  interface FastifyInstance {
    /** Every API route with the permission it declares; read by the permission-matrix test. */
    routeCatalogue: RouteEntry[];
  }
}

/** Who did it, for the audit log: the signed-in user, or `key:<name>` for a bot's API key. */
export function actorOf(request: FastifyRequest): Actor {
  if (request.apiKey) {
    return {
      id: null,
      username: `key:${request.apiKey.name}`,
      ip: request.ip ?? null,
      userAgent: request.headers['user-agent'] ?? null,
    };
  }
  return {
    id: request.principal?.userId ?? null,
    username: request.principal?.username ?? null,
    ip: request.ip ?? null,
    userAgent: request.headers['user-agent'] ?? null,
  };
}

/** The signed-in user of a route that declared 'authenticated' or a permission. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthenticatedError();
  return request.principal;
}

export function signedInActor(request: FastifyRequest): Actor & { id: number } {
  const principal = principalOf(request);
  return { ...actorOf(request), id: principal.userId };
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const space = header.indexOf(' ');
  if (space < 0 || header.slice(0, space).toLowerCase() !== 'bearer') return null;
  const end = header.indexOf(' ', space + 1);
  return header.slice(space + 1, end < 0 ? undefined : end) || null;
}

export interface AuthPluginOptions {
  /** The user behind an access token, or null; at once (without a promise) when it is known already. */
  authenticate: (token: string) => Principal | Promise<Principal | null>;
  /** The key behind a `lumi_…` token; throws UnauthenticatedError (with the reason) for a bad key. */
  authenticateKey: (token: string) => Promise<ApiKeyPrincipal>;
}

/** What a user with a pending action is told everywhere else; the error code is the action's. */
const PENDING_REFUSALS: Record<PendingAction, { detail: string; code: ErrorCode }> = {
  password_change: {
    detail:
      'Change your temporary password first (POST /api/auth/change-password); nothing else is open until then',
    code: 'password_change_required',
  },
  two_factor_setup: {
    detail:
      'Your role requires two-factor sign-in: set it up first (POST /api/auth/2fa/setup, then /api/auth/2fa/enable); nothing else is open until then',
    code: 'two_factor_setup_required',
  },
};

/**
 * An onRequest hook from a check that may finish synchronously: then the request goes on without the promise
 * and microtask an async hook costs (a signed-in user's principal is usually cached).
 */
function hookFrom(check: (request: FastifyRequest) => void | Promise<void>): onRequestHookHandler {
  return (request, _reply, done) => {
    let pending: void | Promise<void>;
    try {
      pending = check(request);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (pending) pending.then(() => done(), done);
    else done();
  };
}

/**
 * Permissions are data: each route names what it needs in `config.permission` (and, to admit bots,
 * `config.apiKeyScope`), and this plugin gives every route that is not public its own onRequest hook
 * enforcing it (public routes get none). An /api route without a declaration is refused at start-up, so
 * none can slip through unguarded.
 *
 * A bearer token starting with `lumi_` is an API key. Keys never pass a user permission check: a key is
 * let through only where the route names an apiKeyScope the key holds, so no key reaches user, role,
 * audit or key management routes. Users, in turn, never pass an 'api-key' route.
 */
export const authPlugin = fp(async (app: FastifyInstance, opts: AuthPluginOptions) => {
  app.decorate('routeCatalogue', []);
  app.decorateRequest('principal', null);
  app.decorateRequest('apiKey', null);

  /** The check for a route needing `permission`, admitting API keys with `apiKeyScope` if it names one. */
  function guard(
    permission: Exclude<RoutePermission, 'public'>,
    apiKeyScope: ApiKeyScope | undefined,
    allowPending: PendingAction[],
  ) {
    const admitKey = (request: FastifyRequest, key: ApiKeyPrincipal) => {
      request.apiKey = key;
      if (!apiKeyScope) {
        throw new ForbiddenError('API keys cannot be used here: this endpoint is for signed-in users');
      }
      if (!key.scopes.includes(apiKeyScope)) {
        throw new ForbiddenError(`This API key needs the '${apiKeyScope}' scope to do this`);
      }
    };
    const needed = permission === 'authenticated' || permission === 'api-key' ? null : permission;
    const admitUser = (request: FastifyRequest, principal: Principal | null) => {
      if (!principal) throw new UnauthenticatedError('Your session has expired. Sign in again.');
      request.principal = principal;
      const pending = principal.pendingAction;
      if (pending && !allowPending.includes(pending)) {
        throw new ForbiddenError(PENDING_REFUSALS[pending].detail, PENDING_REFUSALS[pending].code);
      }
      if (needed && !hasPermission(principal.roles, needed)) {
        throw new ForbiddenError(`You need the '${needed}' permission to do this`);
      }
    };

    return hookFrom((request) => {
      const token = bearerToken(request);
      if (token?.startsWith(API_KEY_PREFIX)) {
        return opts.authenticateKey(token).then((key) => admitKey(request, key));
      }
      if (permission === 'api-key') {
        const detail = `This endpoint is for bot API keys with the '${apiKeyScope}' scope`;
        if (!token) throw new UnauthenticatedError(`${detail}: send one as Authorization: Bearer lumi_…`);
        throw new ForbiddenError(`${detail}; users cannot call it. Create a key under Administration.`);
      }
      if (!token) throw new UnauthenticatedError('Sign in to continue');
      const principal = opts.authenticate(token);
      if (principal instanceof Promise) return principal.then((found) => admitUser(request, found));
      admitUser(request, principal);
    });
  }

  app.addHook('onRoute', (route) => {
    const permission = route.config?.permission;
    const apiKeyScope = route.config?.apiKeyScope;
    if (permission && permission !== 'public') {
      // First, before the route's own hooks.
      const allowPending = route.config?.allowPending ?? [];
      route.onRequest = [guard(permission, apiKeyScope, allowPending), ...[route.onRequest ?? []].flat()];
    }
    // The API documentation's pages (registered by @fastify/swagger-ui) are public by nature.
    if (!route.url.startsWith('/api/') || route.url.startsWith(DOCS_PREFIX)) return;
    if (!permission) throw new Error(`Route ${String(route.method)} ${route.url} declares no permission`);
    if (permission === 'api-key' && !apiKeyScope) {
      throw new Error(`Route ${String(route.method)} ${route.url} is for API keys but names no apiKeyScope`);
    }
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      app.routeCatalogue.push({
        method,
        url: route.url,
        permission,
        ...(apiKeyScope && { apiKeyScope }),
        ...(route.config?.allowPending && { allowPending: route.config.allowPending }),
      });
    }
  });
});
