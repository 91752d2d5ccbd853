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
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { resourceRoutes } from '../../plugins/resource-routes.js';
import { routeOptions } from '../../plugins/route-options.js';
import { actorOf } from '../../plugins/auth.js';

/** Paths as in spec section 7 (`/admin/api/config/{domain}`), under /api. */
export const configItemsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['configuration'];
  const base = '/admin/api/config/:domain';
  const read = routeOptions(tags, 'config:read');
  const write = routeOptions(tags, 'config:write');
  const service = app.services.configItems;
  // The items of one domain: their service calls name the domain too.
  const items = resourceRoutes(app, {
    path: base,
    params: configDomainParamsSchema,
    itemParams: configItemParamsSchema,
    item: configItemSchema,
    read,
    write,
  });

  items.list({ summary: 'Items of one domain', response: z.array(configItemSchema) }, (request) =>
    service.list(request.params.domain),
  );
  items.create({ summary: 'Create an item (revision 1)', body: configItemInputSchema }, (request) =>
    service.create(actorOf(request), request.params.domain, request.body),
  );
  app.get(
    `${base}/export`,
    read({
      summary: 'Download a domain as a JSON file',
      params: configDomainParamsSchema,
      response: configExportSchema,
    }),
    async (request, reply) => {
      const exported = await app.services.configTransfer.export(request.params.domain);
      void reply.header('content-disposition', `attachment; filename="lumi-${exported.domain}.json"`);
      return exported;
    },
  );
  app.post(
    `${base}/import`,
    write({
      summary: 'Import items: all are validated first, then all are applied or none',
      params: configDomainParamsSchema,
      body: configImportSchema,
      response: configImportResultSchema,
    }),
    (request) =>
      app.services.configTransfer.import(actorOf(request), request.params.domain, request.body.items),
  );
  items.get({ summary: 'One item' }, (request) => service.get(request.params.domain, request.params.id));
  items.update(
    {
      summary: 'Change an item; `version` must be the one you loaded (409 with `current` otherwise)',
      body: configItemUpdateSchema,
    },
    (request) => service.update(actorOf(request), request.params.domain, request.params.id, request.body),
  );
  items.remove(
    {
      summary: 'Delete an item; `?version=` must be the one you loaded',
      querystring: configDeleteQuerySchema,
    },
    (request) =>
      service.remove(actorOf(request), request.params.domain, request.params.id, request.query.version),
  );
  app.get(
    `${base}/:id/revisions`,
    read({
      summary: 'Revisions of an item, newest first',
      params: configItemParamsSchema,
      response: z.array(configRevisionSchema),
    }),
    (request) => service.revisions(request.params.domain, request.params.id),
  );
  app.post(
    `${base}/:id/revisions/:revision/restore`,
    write({
      summary: 'Bring a revision back as a new revision',
      params: configRevisionParamsSchema,
      body: configRestoreBodySchema,
      response: configItemSchema,
    }),
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
