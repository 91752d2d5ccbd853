import {
  channelInputSchema,
  channelParamsSchema,
  channelSchema,
  channelUpdateSchema,
  enabledQuerySchema,
  topicInputSchema,
  topicParamsSchema,
  topicSchema,
  topicUpdateSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { resourceRoutes } from '../../../plugins/resource-routes.js';
import { routeOptions } from '../../../plugins/route-options.js';
import { actorOf } from '../../../plugins/auth.js';

/**
 * Channels and topics (docs/bot-developers/deliveries.md, "Message templates"): read with templates:read,
 * change with channels:write.
 */
export const channelsRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = routeOptions(['messaging'], 'templates:read');
  const write = routeOptions(['messaging'], 'channels:write');
  const service = app.services.messaging.channels;
  const channels = resourceRoutes(app, { path: '/channels', item: channelSchema, service, read, write });

  channels.list(
    {
      summary: 'Channels, by name; ?enabled=true|false filters',
      querystring: enabledQuerySchema,
      response: z.array(channelSchema),
    },
    (request) => service.list(request.query.enabled),
  );
  channels.create({ summary: 'Add a channel', body: channelInputSchema });
  channels.update({
    summary: 'Change a channel; fields left out keep their values',
    body: channelUpdateSchema,
  });
  channels.remove({ summary: 'Delete a channel and its topics; refused (409) while templates use it' });

  // A channel's forum topics: their service calls name the channel too.
  const topics = resourceRoutes(app, {
    path: '/channels/:id/topics',
    params: channelParamsSchema,
    itemPath: '/channels/:id/topics/:topic_id',
    itemParams: topicParamsSchema,
    item: topicSchema,
    read,
    write,
  });
  topics.list(
    {
      summary: "A channel's forum topics, by name; ?enabled=true|false filters",
      querystring: enabledQuerySchema,
      response: z.array(topicSchema),
    },
    (request) => service.listTopics(request.params.id, request.query.enabled),
  );
  topics.create(
    { summary: 'Add a forum topic (its message_thread_id) to a channel', body: topicInputSchema },
    (request) => service.createTopic(actorOf(request), request.params.id, request.body),
  );
  topics.update(
    { summary: 'Change a topic; fields left out keep their values', body: topicUpdateSchema },
    (request) =>
      service.updateTopic(actorOf(request), request.params.id, request.params.topic_id, request.body),
  );
  topics.remove({ summary: 'Delete a topic; refused (409) while templates use it' }, (request) =>
    service.removeTopic(actorOf(request), request.params.id, request.params.topic_id),
  );
};
