import {
  deliveryBatchRequestSchema,
  deliveryBatchResponseSchema,
  deliveryDetailSchema,
  deliveryListQuerySchema,
  deliveryListResponseSchema,
  deliveryRequestSchema,
  deliverySchema,
  deliverySummarySchema,
  idParamSchema,
} from '@lumi/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Turns } from '../../../lib/turns.js';
import { routeOptions } from '../../../plugins/route-options.js';
import { actorOf } from '../../../plugins/auth.js';
import type { Requester } from './deliveries.service.js';

/** Who asks: a bot's API key (`messages:send`) or a signed-in user (`templates:send`). */
function requesterOf(request: FastifyRequest): Requester {
  if (request.apiKey) {
    return {
      source: 'api_key',
      key: `key:${request.apiKey.id}`,
      name: `key:${request.apiKey.name}`,
      actor: null,
    };
  }
  const actor = actorOf(request);
  return { source: 'user', key: `user:${actor.id}`, name: actor.username, actor };
}

const params = idParamSchema;

/** A batch's answer, encoded entry by entry (the batch route). */
const ACCEPTED_ENTRY = deliveryBatchResponseSchema.shape.accepted.element;
const REJECTED_ENTRIES = deliveryBatchResponseSchema.shape.rejected;

/**
 * Deliveries (docs/bot-developers/deliveries.md, "Sending messages (deliveries)"): queue with templates:send
 * (users) or messages:send (API keys); read the log with templates:read; cancel and retry with
 * templates:send.
 */
export const deliveriesRoutes: FastifyPluginAsyncZod = async (app) => {
  const send = routeOptions(['deliveries'], 'templates:send');
  const read = routeOptions(['deliveries'], 'templates:read');
  // A bot's key with messages:send queues deliveries and reads back the ones it queued.
  const sendWithKeys = routeOptions(['deliveries'], 'templates:send', { apiKeyScope: 'messages:send' });
  const readWithKeys = routeOptions(['deliveries'], 'templates:read', { apiKeyScope: 'messages:send' });
  const service = app.services.messaging.deliveries;

  app.post(
    '/deliveries',
    sendWithKeys({
      summary: 'Queue a template with data for delivery to Telegram',
      description:
        'Renders the template and checks the text as Telegram would: a template that does not render or a ' +
        'text Telegram would refuse answers 422 and queues nothing. 202 with the queued delivery; 200 with ' +
        'the first delivery when the same idempotency_key came from the same caller within 24 hours.',
      body: deliveryRequestSchema,
      response: { 200: deliverySchema, 202: deliverySchema },
    }),
    async (request, reply) => {
      const { delivery, created } = await service.create(requesterOf(request), request.body);
      return reply.status(created ? 202 : 200).send(delivery);
    },
  );

  app.post(
    '/deliveries/batch',
    sendWithKeys({
      summary: 'Queue up to 500 deliveries, each judged on its own',
      description:
        'Each entry is a delivery request as for POST /deliveries. The valid ones are queued (or found by ' +
        'their idempotency key) and listed under accepted with their index; the others under rejected with ' +
        'the reason.',
      body: deliveryBatchRequestSchema,
      response: { 202: deliveryBatchResponseSchema },
    }),
    async (request, reply) => {
      const answer = await service.createBatch(requesterOf(request), request.body.deliveries);
      // Up to 500 deliveries with their data are megabytes of JSON: encoded one entry a turn
      // (docs/operators/security.md, "Bounded work"), each by the answer's own schema.
      const turns = new Turns();
      const accepted: string[] = [];
      for (const entry of answer.accepted) {
        await turns.next();
        accepted.push(JSON.stringify(z.encode(ACCEPTED_ENTRY, entry)));
      }
      await turns.next();
      const rejected = JSON.stringify(z.encode(REJECTED_ENTRIES, answer.rejected));
      return reply
        .status(202)
        .type('application/json; charset=utf-8')
        .send(`{"accepted":[${accepted.join(',')}],"rejected":${rejected}}` as never);
    },
  );

  app.get(
    '/deliveries',
    read({
      summary: 'The delivery log, newest first; filter by status, channel, template, schedule and time',
      querystring: deliveryListQuerySchema,
      response: deliveryListResponseSchema,
    }),
    (request) => service.list(request.query),
  );

  app.get(
    '/deliveries/summary',
    read({ summary: 'Deliveries created in the last 24 hours, by status', response: deliverySummarySchema }),
    () => service.summary(),
  );

  app.get(
    '/deliveries/:id',
    readWithKeys({
      summary: 'One delivery with the data it was rendered with and every attempt',
      description: 'An API key reads only the deliveries it queued; another one answers 404.',
      params,
      response: deliveryDetailSchema,
    }),
    (request) => service.get(request.params.id, requesterOf(request)),
  );

  app.post(
    '/deliveries/:id/cancel',
    send({
      summary: 'Cancel a queued delivery (409 when it is no longer queued)',
      params,
      response: deliverySchema,
    }),
    (request) => service.cancel(actorOf(request), request.params.id),
  );

  app.post(
    '/deliveries/:id/retry',
    send({
      summary: 'Send a failed or unknown delivery again, as a new attempt (409 otherwise)',
      params,
      response: deliverySchema,
    }),
    (request) => service.retry(actorOf(request), request.params.id),
  );
};
