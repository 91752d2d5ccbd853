import {
  okResponseSchema,
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
import { actorOf } from '../../../plugins/auth.js';

/**
 * Templates (docs/bot-developers/deliveries.md, "Message templates"): read with templates:read, change with
 * templates:write.
 */
export const templatesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['messaging'];
  const service = app.services.messaging.templates;

  app.get(
    '/templates',
    {
      config: { permission: 'templates:read' },
      schema: {
        tags,
        summary: 'Templates by name; filter by channel_id, message_type and enabled',
        querystring: templateQuerySchema,
        response: { 200: z.array(templateSchema) },
      },
    },
    (request) => service.list(request.query),
  );
  app.post(
    '/templates',
    {
      config: { permission: 'templates:write' },
      schema: {
        tags,
        summary: 'Create a template (version 1)',
        body: templateInputSchema,
        response: { 201: templateSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
  );
  app.get(
    '/templates/:id',
    {
      config: { permission: 'templates:read' },
      schema: {
        tags,
        summary: 'One template',
        params: templateParamsSchema,
        response: { 200: templateSchema },
      },
    },
    (request) => service.get(request.params.id),
  );
  app.put(
    '/templates/:id',
    {
      config: { permission: 'templates:write' },
      schema: {
        tags,
        summary:
          'Save a template as a new version; `version` is the one you edited (409 with `current` otherwise); fields left out keep their values',
        params: templateParamsSchema,
        body: templateUpdateSchema,
        response: { 200: templateSchema },
      },
    },
    (request) => service.update(actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/templates/:id',
    {
      config: { permission: 'templates:write' },
      schema: {
        tags,
        summary:
          'Delete a template: it disappears from the lists and its name is free again, while its versions and test sends stay for the audit. `?version=` is the one you saw (409 with `current` otherwise)',
        params: templateParamsSchema,
        querystring: templateDeleteQuerySchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await service.remove(actorOf(request), request.params.id, request.query.version);
      return { ok: true as const };
    },
  );
  app.get(
    '/templates/:id/versions',
    {
      config: { permission: 'templates:read' },
      schema: {
        tags,
        summary: 'Every version of a template, newest first',
        params: templateParamsSchema,
        response: { 200: z.array(templateVersionSchema) },
      },
    },
    (request) => service.versions(request.params.id),
  );
  app.get(
    '/templates/:id/versions/:version',
    {
      config: { permission: 'templates:read' },
      schema: {
        tags,
        summary: 'One version of a template',
        params: templateVersionParamsSchema,
        response: { 200: templateVersionSchema },
      },
    },
    (request) => service.version(request.params.id, request.params.version),
  );
  app.post(
    '/templates/:id/versions/:version/restore',
    {
      config: { permission: 'templates:write' },
      schema: {
        tags,
        summary: 'Bring a version back as a new version; body `version` guards against a newer save',
        params: templateVersionParamsSchema,
        body: templateRestoreBodySchema,
        response: { 200: templateSchema },
      },
    },
    (request) =>
      service.restore(actorOf(request), request.params.id, request.params.version, request.body?.version),
  );
};
