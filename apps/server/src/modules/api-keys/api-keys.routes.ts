import {
  apiKeyContentSchema,
  apiKeyCreatedSchema,
  apiKeyCreateSchema,
  apiKeySchema,
  idParamSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../plugins/auth.js';
import { routeOptions } from '../../plugins/route-options.js';

/** Key management is for signed-in admins only: no key reaches these routes (none declares apiKeyScope). */
export const apiKeysRoutes: FastifyPluginAsyncZod = async (app) => {
  const manage = routeOptions(['api keys'], 'admin:keys:write');
  const service = app.services.apiKeys;

  app.get(
    '/admin/api-keys',
    manage({
      summary: 'API keys, newest first, revoked ones included; never the keys themselves',
      response: z.array(apiKeySchema),
    }),
    () => service.list(),
  );
  app.post(
    '/admin/api-keys',
    manage({
      summary: 'Create a key; the answer holds the key, shown this once',
      body: apiKeyCreateSchema,
      response: { 201: apiKeyCreatedSchema },
    }),
    async (request, reply) => {
      const created = await service.create(actorOf(request), request.body);
      return reply.status(201).header('cache-control', 'no-store').send(created);
    },
  );
  app.put(
    '/admin/api-keys/:id/content',
    manage({
      summary:
        "Whether the key's LLM calls keep their prompt and completion, and the patterns redacted before storing",
      params: idParamSchema,
      body: apiKeyContentSchema,
      response: apiKeySchema,
    }),
    (request) => service.setContent(actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/admin/api-keys/:id',
    manage({
      summary: 'Revoke a key at once; it stays listed as revoked',
      params: idParamSchema,
      response: apiKeySchema,
    }),
    (request) => service.revoke(actorOf(request), request.params.id),
  );
};
