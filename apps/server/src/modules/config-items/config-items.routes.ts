import {
  botConfigSchema,
  configDeleteQuerySchema,
  configDomainParamsSchema,
  configExportSchema,
  configImportResultSchema,
  configImportSchema,
  configItemInputSchema,
  configItemParamsSchema,
  configItemSchema,
  configItemUpdateSchema,
  configRestoreBodySchema,
  configRevisionParamsSchema,
  configRevisionSchema,
  okResponseSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../plugins/auth.js';

/** Paths as in spec section 7 (`/admin/api/config/{domain}`), under /api. */
export const configItemsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['configuration'];
  const base = '/admin/api/config/:domain';
  const service = app.services.configItems;

  app.get(
    base,
    {
      config: { permission: 'config:read' },
      schema: {
        tags,
        summary: 'Items of one domain',
        params: configDomainParamsSchema,
        response: { 200: z.array(configItemSchema) },
      },
    },
    (request) => service.list(request.params.domain),
  );
  app.post(
    base,
    {
      config: { permission: 'config:write' },
      schema: {
        tags,
        summary: 'Create an item (revision 1)',
        params: configDomainParamsSchema,
        body: configItemInputSchema,
        response: { 201: configItemSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(actorOf(request), request.params.domain, request.body)),
  );
  app.get(
    `${base}/export`,
    {
      config: { permission: 'config:read' },
      schema: {
        tags,
        summary: 'Download a domain as a JSON file',
        params: configDomainParamsSchema,
        response: { 200: configExportSchema },
      },
    },
    async (request, reply) => {
      const exported = await app.services.configTransfer.export(request.params.domain);
      void reply.header('content-disposition', `attachment; filename="lumi-${exported.domain}.json"`);
      return exported;
    },
  );
  app.post(
    `${base}/import`,
    {
      config: { permission: 'config:write' },
      schema: {
        tags,
        summary: 'Import items: all are validated first, then all are applied or none',
        params: configDomainParamsSchema,
        body: configImportSchema,
        response: { 200: configImportResultSchema },
      },
    },
    (request) =>
      app.services.configTransfer.import(actorOf(request), request.params.domain, request.body.items),
  );
  app.get(
    `${base}/:id`,
    {
      config: { permission: 'config:read' },
      schema: {
        tags,
        summary: 'One item',
        params: configItemParamsSchema,
        response: { 200: configItemSchema },
      },
    },
    (request) => service.get(request.params.domain, request.params.id),
  );
  app.put(
    `${base}/:id`,
    {
      config: { permission: 'config:write' },
      schema: {
        tags,
        summary: 'Change an item; `version` must be the one you loaded (409 with `current` otherwise)',
        params: configItemParamsSchema,
        body: configItemUpdateSchema,
        response: { 200: configItemSchema },
      },
    },
    (request) => service.update(actorOf(request), request.params.domain, request.params.id, request.body),
  );
  app.delete(
    `${base}/:id`,
    {
      config: { permission: 'config:write' },
      schema: {
        tags,
        summary: 'Delete an item; `?version=` must be the one you loaded',
        params: configItemParamsSchema,
        querystring: configDeleteQuerySchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await service.remove(actorOf(request), request.params.domain, request.params.id, request.query.version);
      return { ok: true as const };
    },
  );
  app.get(
    `${base}/:id/revisions`,
    {
      config: { permission: 'config:read' },
      schema: {
        tags,
        summary: 'Revisions of an item, newest first',
        params: configItemParamsSchema,
        response: { 200: z.array(configRevisionSchema) },
      },
    },
    (request) => service.revisions(request.params.domain, request.params.id),
  );
  app.post(
    `${base}/:id/revisions/:revision/restore`,
    {
      config: { permission: 'config:write' },
      schema: {
        tags,
        summary: 'Bring a revision back as a new revision',
        params: configRevisionParamsSchema,
        body: configRestoreBodySchema,
        response: { 200: configItemSchema },
      },
    },
    (request) =>
      service.restore(
        actorOf(request),
        request.params.domain,
        request.params.id,
        request.params.revision,
        request.body?.version,
      ),
  );

  app.get(
    '/bot/config',
    {
      config: { permission: 'config:read', apiKeyScope: 'config:read' },
      schema: {
        tags: ['bot'],
        summary:
          'Every active item grouped by domain, highest priority first; send If-None-Match to poll cheaply',
        response: { 200: botConfigSchema, 304: z.undefined().describe('Not modified, no body') },
      },
    },
    async (request, reply) => {
      const { etag, body } = await app.services.botConfig.current();
      const tag = `"${etag}"`;
      void reply.header('etag', tag).header('cache-control', 'no-cache');
      const asked = request.headers['if-none-match'];
      if (asked && asked.split(',').some((t) => t.trim().replace(/^W\//, '') === tag)) {
        return reply.status(304).send();
      }
      return body;
    },
  );
};
