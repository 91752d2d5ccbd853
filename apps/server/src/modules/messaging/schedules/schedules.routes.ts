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
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { resourceRoutes } from '../../../plugins/resource-routes.js';
import { routeOptions } from '../../../plugins/route-options.js';
import { actorOf } from '../../../plugins/auth.js';

const params = idParamSchema;
const runsQuery = deliveryListQuerySchema.pick({ status: true, cursor: true, limit: true });

/**
 * Schedules (docs/bot-developers/deliveries.md, "Schedules"): read with templates:read, change with
 * templates:write.
 */
export const schedulesRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = routeOptions(['schedules'], 'templates:read');
  const write = routeOptions(['schedules'], 'templates:write');
  const service = app.services.messaging.schedules;
  const schedules = resourceRoutes(app, { path: '/schedules', item: scheduleSchema, service, read, write });

  schedules.list(
    { summary: 'Schedules with their next run and last result', response: scheduleListResponseSchema },
    async () => ({ schedules: await service.list() }),
  );

  app.post(
    '/schedules/preview',
    read({
      summary: 'The next five run times of a recurrence in a time zone',
      body: schedulePreviewRequestSchema,
      response: schedulePreviewSchema,
    }),
    (request) => service.preview(request.body.recurrence, request.body.timezone, request.body.from),
  );

  schedules.get({ summary: 'One schedule' });
  schedules.create({
    summary:
      'Create a schedule (422 naming the field: bad cron, unknown time zone, template, channel or topic)',
    body: scheduleInputSchema,
  });
  schedules.update({
    summary: 'Change a schedule; 409 with the current one when `version` is not the latest',
    body: scheduleUpdateSchema,
  });
  schedules.remove({
    summary: 'Delete a schedule at the version shown (409 when it changed since); its deliveries stay',
    querystring: scheduleDeleteQuerySchema,
  });

  app.post(
    '/schedules/:id/pause',
    write({
      summary: 'Pause a schedule: no run is sent until it is resumed',
      params,
      response: scheduleSchema,
    }),
    (request) => service.setEnabled(actorOf(request), request.params.id, false),
  );

  app.post(
    '/schedules/:id/resume',
    write({
      summary: 'Resume a schedule from now on (runs due while it was paused are not sent)',
      params,
      response: scheduleSchema,
    }),
    (request) => service.setEnabled(actorOf(request), request.params.id, true),
  );

  app.get(
    '/schedules/:id/runs',
    read({
      summary: "The schedule's runs: its deliveries, newest first",
      params,
      querystring: runsQuery,
      response: deliveryListResponseSchema,
    }),
    (request) => service.runs(request.params.id, request.query),
  );
};
