import {
  templateDeleteQuerySchema,
  templateInputSchema,
  templateParamsSchema,
  templateQuerySchema,
  templateRestoreBodySchema,
  templateSchema,
  templateUpdateSchema,
  templateVersionParamsSchema,
  templateVersionSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { resourceRoutes } from '../../../plugins/resource-routes.js';
import { routeOptions } from '../../../plugins/route-options.js';
import { actorOf } from '../../../plugins/auth.js';

/**
 * Templates (docs/bot-developers/deliveries.md, "Message templates"): read with templates:read, change with
 * templates:write.
 */
export const templatesRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = routeOptions(['messaging'], 'templates:read');
  const write = routeOptions(['messaging'], 'templates:write');
  const service = app.services.messaging.templates;
  const templates = resourceRoutes(app, { path: '/templates', item: templateSchema, service, read, write });

  templates.list(
    {
      summary: 'Templates by name; filter by channel_id, message_type and enabled',
      querystring: templateQuerySchema,
      response: z.array(templateSchema),
    },
    (request) => service.list(request.query),
  );
  templates.create({ summary: 'Create a template (version 1)', body: templateInputSchema });
  templates.get({ summary: 'One template' });
  templates.update({
    summary:
      'Save a template as a new version; `version` is the one you edited (409 with `current` otherwise); fields left out keep their values',
    body: templateUpdateSchema,
  });
  templates.remove({
    summary:
      'Delete a template: it disappears from the lists and its name is free again, while its versions and test sends stay for the audit. `?version=` is the one you saw (409 with `current` otherwise)',
    querystring: templateDeleteQuerySchema,
  });
  app.get(
    '/templates/:id/versions',
    read({
      summary: 'Every version of a template, newest first',
      params: templateParamsSchema,
      response: z.array(templateVersionSchema),
    }),
    (request) => service.versions(request.params.id),
  );
  app.get(
    '/templates/:id/versions/:version',
    read({
      summary: 'One version of a template',
      params: templateVersionParamsSchema,
      response: templateVersionSchema,
    }),
    (request) => service.version(request.params.id, request.params.version),
  );
  app.post(
    '/templates/:id/versions/:version/restore',
    write({
      summary: 'Bring a version back as a new version; body `version` guards against a newer save',
      params: templateVersionParamsSchema,
      body: templateRestoreBodySchema,
      response: templateSchema,
    }),
    (request) =>
      service.restore(actorOf(request), request.params.id, request.params.version, request.body?.version),
  );
};
