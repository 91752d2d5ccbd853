import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DOCS_PREFIX } from './openapi.js';

const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Radix primitives and charts set inline style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join(';');

/** Headers every response carries. */
const COMMON_HEADERS = {
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/**
 * The console and its assets (and the API docs pages): helmet's set of secure headers, with a strict policy.
 * The API docs page replaces the Content-Security-Policy with its own (plugins/openapi.ts).
 */
const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...COMMON_HEADERS,
  'content-security-policy': CONSOLE_CONTENT_SECURITY_POLICY,
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
});

/**
 * JSON API answers, as the OWASP REST Security Cheat Sheet recommends: nothing may be rendered or framed from
 * them, and no cache may keep them (a route may still set its own Cache-Control, such as the bot's config
 * with its ETag). Fewer and shorter headers also matter on dashboards polled many times a second.
 */
const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...COMMON_HEADERS,
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
});

const HSTS = 'max-age=31536000; includeSubDomains';

function isApi(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith(DOCS_PREFIX);
}

/** The request id and the secure headers of one response; also for errors raised before any hook runs. */
export function setResponseHeaders(request: FastifyRequest, reply: FastifyReply): void {
  void reply.headers(isApi(request.url) ? API_SECURITY_HEADERS : CONSOLE_SECURITY_HEADERS);
  void reply.header('x-request-id', request.id);
  if (request.protocol === 'https') void reply.header('strict-transport-security', HSTS);
}

/**
 * Every response carries its request id (X-Request-Id, see lib/request-id.ts) and secure headers, which are
 * fixed at start-up (computing them per request cost a noticeable share of a dashboard request); HSTS only
 * when the request came over HTTPS. One hook for all of it: each hook has its own cost on every request.
 */
export const responseHeadersPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', (request, reply, done) => {
    setResponseHeaders(request, reply);
    done();
  });
});
