import {
  templateParamsSchema,
  testHistoryQuerySchema,
  testSendBodySchema,
  testSendRecordSchema,
  testSendResultSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInActor } from '../../../plugins/auth.js';

/**
 * Test sends (docs/bot-developers/deliveries.md, "Message templates"): sending needs templates:send; the
 * history is read with templates:read.
 */
export const testSendsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['messaging'];
  const service = app.services.messaging.testSends;

  app.post(
    '/templates/:id/test',
    {
      config: { permission: 'templates:send' },
      schema: {
        tags,
        summary:
          "Render the template and send it to Telegram (the template's channel and topic, or test_channel_id / test_thread_id); failures answer success: false",
        params: templateParamsSchema,
        body: testSendBodySchema,
        response: { 200: testSendResultSchema },
      },
    },
    (request) => service.send(signedInActor(request), request.params.id, request.body),
  );
  app.get(
    '/templates/:id/test-history',
    {
      config: { permission: 'templates:read' },
      schema: {
        tags,
        summary: 'Test sends of a template, newest first',
        params: templateParamsSchema,
        querystring: testHistoryQuerySchema,
        response: { 200: z.array(testSendRecordSchema) },
      },
    },
    (request) => service.history(request.params.id, request.query.limit),
  );
};
