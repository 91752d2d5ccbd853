import {
  templateParamsSchema,
  testHistoryQuerySchema,
  testSendBodySchema,
  testSendRecordSchema,
  testSendResultSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { routeOptions } from '../../../plugins/route-options.js';
import { signedInActor } from '../../../plugins/auth.js';

/**
 * Test sends (docs/bot-developers/deliveries.md, "Message templates"): sending needs templates:send; the
 * history is read with templates:read.
 */
export const testSendsRoutes: FastifyPluginAsyncZod = async (app) => {
  const send = routeOptions(['messaging'], 'templates:send');
  const read = routeOptions(['messaging'], 'templates:read');
  const service = app.services.messaging.testSends;

  app.post(
    '/templates/:id/test',
    send({
      summary:
        "Render the template and send it to Telegram (the template's channel and topic, or test_channel_id / test_thread_id); failures answer success: false",
      params: templateParamsSchema,
      body: testSendBodySchema,
      response: testSendResultSchema,
    }),
    (request) => service.send(signedInActor(request), request.params.id, request.body),
  );
  app.get(
    '/templates/:id/test-history',
    read({
      summary: 'Test sends of a template, newest first',
      params: templateParamsSchema,
      querystring: testHistoryQuerySchema,
      response: z.array(testSendRecordSchema),
    }),
    (request) => service.history(request.params.id, request.query.limit),
  );
};
