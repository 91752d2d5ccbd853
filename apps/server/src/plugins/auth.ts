import { hasPermission, type ApiKeyScope, type Permission } from '@lumi/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ForbiddenError, UnauthenticatedError } from '../lib/errors.js';
import type { Actor } from '../modules/audit/audit.service.js';
import type { Principal } from '../modules/auth/auth.service.js';

/** What a route needs: nothing, any signed-in user, or one permission of the catalogue. */
export type RoutePermission = 'public' | 'authenticated' | Permission;

export interface RouteEntry {
  method: string;
  url: string;
  permission: RoutePermission;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RoutePermission;
    /** The API-key scope that also opens this route to a bot's key; routes without one refuse keys. */
    apiKeyScope?: ApiKeyScope;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyInstance {
    /** Every API route with the permission it declares; read by the permission-matrix test. */
    routeCatalogue: RouteEntry[];
  }
}

/** Routes of the API documentation, registered by @fastify/swagger-ui, are public by nature. */
const DOCS_PREFIX = '/api/docs';

export function actorOf(request: FastifyRequest): Actor {
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

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : null;
}

/**
 * Permissions are data: each route names what it needs in `config.permission`, and this one hook enforces
 * it. An /api route without a declaration is refused at start-up, so none can slip through unguarded.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: { authenticate: (token: string) => Promise<Principal | null> }) => {
    app.decorate('routeCatalogue', []);
    app.decorateRequest('principal', null);

    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api/') || route.url.startsWith(DOCS_PREFIX)) return;
      const permission = route.config?.permission;
      if (!permission) throw new Error(`Route ${String(route.method)} ${route.url} declares no permission`);
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        app.routeCatalogue.push({ method, url: route.url, permission });
      }
    });

    app.addHook('onRequest', async (request) => {
      const permission = request.routeOptions.config.permission;
      if (!permission || permission === 'public') return;
      const token = bearerToken(request);
      const principal = token ? await opts.authenticate(token) : null;
      if (!principal) {
        throw new UnauthenticatedError(
          token ? 'Your session has expired. Sign in again.' : 'Sign in to continue',
        );
      }
      request.principal = principal;
      if (permission !== 'authenticated' && !hasPermission(principal.roles, permission)) {
        throw new ForbiddenError(`You need the '${permission}' permission to do this`);
      }
    });
  },
);
