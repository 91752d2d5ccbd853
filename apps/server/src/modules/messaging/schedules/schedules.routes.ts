import {
  deliveryListQuerySchema,
  deliveryListResponseSchema,
  idParamSchema,
  scheduleInputSchema,
  scheduleListResponseSchema,
  schedulePreviewRequestSchema,
  schedulePreviewSchema,
  scheduleSchema,
  scheduleUpdateSchema,
  scheduleDeleteQuerySchema,
  okResponseSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../../plugins/auth.js';

const params = idParamSchema;
const runsQuery = deliveryListQuerySchema.pick({ status: true, cursor: true, limit: true });

/**
 * Schedules (docs/bot-developers/deliveries.md, "Schedules"): read with templates:read, change with
 * templates:write.
 */
export const schedulesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['schedules'];
  const service = app.services.messaging.schedules;
  const read = { permission: 'templates:read' } as const;
  const write = { permission: 'templates:write' } as const;

  app.get(
    '/schedules',
    {
      config: read,
      schema: {
        tags,
        summary: 'Schedules with their next run and last result',
        response: { 200: scheduleListResponseSchema },
      },
    },
    async () => ({ schedules: await service.list() }),
  );

  app.post(
    '/schedules/preview',
    {
      config: read,
      schema: {
        tags,
        summary: 'The next five run times of a recurrence in a time zone',
        body: schedulePreviewRequestSchema,
        response: { 200: schedulePreviewSchema },
      },
    },
    (request) => service.preview(request.body.recurrence, request.body.timezone, request.body.from),
  );

  app.get(
    '/schedules/:id',
    { config: read, schema: { tags, summary: 'One schedule', params, response: { 200: scheduleSchema } } },
    (request) => service.get(request.params.id),
  );

  app.post(
    '/schedules',
    {
      config: write,
      schema: {
        tags,
        summary:
          'Create a schedule (422 naming the field: bad cron, unknown time zone, template, channel or topic)',
        body: scheduleInputSchema,
        response: { 201: scheduleSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
  );

  app.put(
    '/schedules/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change a schedule; 409 with the current one when `version` is not the latest',
        params,
        body: scheduleUpdateSchema,
        response: { 200: scheduleSchema },
      },
    },
    (request) => service.update(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/schedules/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a schedule at the version shown (409 when it changed since); its deliveries stay',
        params,
        querystring: scheduleDeleteQuerySchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await service.remove(actorOf(request), request.params.id, request.query.version);
      return { ok: true as const };
    },
  );

  app.post(
    '/schedules/:id/pause',
    {
      config: write,
      schema: {
        tags,
        summary: 'Pause a schedule: no run is sent until it is resumed',
        params,
        response: { 200: scheduleSchema },
      },
    },
    (request) => service.setEnabled(actorOf(request), request.params.id, false),
  );

  app.post(
    '/schedules/:id/resume',
    {
      config: write,
      schema: {
        tags,
        summary: 'Resume a schedule from now on (runs due while it was paused are not sent)',
        params,
        response: { 200: scheduleSchema },
      },
    },
    (request) => service.setEnabled(actorOf(request), request.params.id, true),
  );

  app.get(
    '/schedules/:id/runs',
    {
      config: read,
      schema: {
        tags,
        summary: "The schedule's runs: its deliveries, newest first",
        params,
        querystring: runsQuery,
        response: { 200: deliveryListResponseSchema },
      },
    },
    (request) => service.runs(request.params.id, request.query),
  );
};
