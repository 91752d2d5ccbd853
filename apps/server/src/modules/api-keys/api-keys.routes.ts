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

/** Key management is for signed-in admins only: no key reaches these routes (none declares apiKeyScope). */
export const apiKeysRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['api keys'];
  const service = app.services.apiKeys;

  app.get(
    '/admin/api-keys',
    {
      config: { permission: 'admin:keys:write' },
      schema: {
        tags,
        summary: 'API keys, newest first, revoked ones included; never the keys themselves',
        response: { 200: z.array(apiKeySchema) },
      },
    },
    () => service.list(),
  );
  app.post(
    '/admin/api-keys',
    {
      config: { permission: 'admin:keys:write' },
      schema: {
        tags,
        summary: 'Create a key; the answer holds the key, shown this once',
        body: apiKeyCreateSchema,
        response: { 201: apiKeyCreatedSchema },
      },
    },
    async (request, reply) => {
      const created = await service.create(actorOf(request), request.body);
      return reply.status(201).header('cache-control', 'no-store').send(created);
    },
  );
  app.put(
    '/admin/api-keys/:id/content',
    {
      config: { permission: 'admin:keys:write' },
      schema: {
        tags,
        summary:
          "Whether the key's LLM calls keep their prompt and completion, and the patterns redacted before storing",
        params: idParamSchema,
        body: apiKeyContentSchema,
        response: { 200: apiKeySchema },
      },
    },
    (request) => service.setContent(actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/admin/api-keys/:id',
    {
      config: { permission: 'admin:keys:write' },
      schema: {
        tags,
        summary: 'Revoke a key at once; it stays listed as revoked',
        params: idParamSchema,
        response: { 200: apiKeySchema },
      },
    },
    (request) => service.revoke(actorOf(request), request.params.id),
  );
};
