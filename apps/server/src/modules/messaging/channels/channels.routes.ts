import {
  channelInputSchema,
  channelParamsSchema,
  channelSchema,
  channelUpdateSchema,
  enabledQuerySchema,
  okResponseSchema,
  topicInputSchema,
  topicParamsSchema,
  topicSchema,
  topicUpdateSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../../plugins/auth.js';

/**
 * Channels and topics (docs/bot-developers/deliveries.md, "Message templates"): read with templates:read,
 * change with channels:write.
 */
export const channelsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['messaging'];
  const service = app.services.messaging.channels;

  app.get(
    '/channels',
    {
      config: { permission: 'templates:read' },
      schema: {
        tags,
        summary: 'Channels, by name; ?enabled=true|false filters',
        querystring: enabledQuerySchema,
        response: { 200: z.array(channelSchema) },
      },
    },
    (request) => service.list(request.query.enabled),
  );
  app.post(
    '/channels',
    {
      config: { permission: 'channels:write' },
      schema: { tags, summary: 'Add a channel', body: channelInputSchema, response: { 201: channelSchema } },
    },
    async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
  );
  app.put(
    '/channels/:id',
    {
      config: { permission: 'channels:write' },
      schema: {
        tags,
        summary: 'Change a channel; fields left out keep their values',
        params: channelParamsSchema,
        body: channelUpdateSchema,
        response: { 200: channelSchema },
      },
    },
    (request) => service.update(actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/channels/:id',
    {
      config: { permission: 'channels:write' },
      schema: {
        tags,
        summary: 'Delete a channel and its topics; refused (409) while templates use it',
        params: channelParamsSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await service.remove(actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.get(
    '/channels/:id/topics',
    {
      config: { permission: 'templates:read' },
      schema: {
        tags,
        summary: "A channel's forum topics, by name; ?enabled=true|false filters",
        params: channelParamsSchema,
        querystring: enabledQuerySchema,
        response: { 200: z.array(topicSchema) },
      },
    },
    (request) => service.listTopics(request.params.id, request.query.enabled),
  );
  app.post(
    '/channels/:id/topics',
    {
      config: { permission: 'channels:write' },
      schema: {
        tags,
        summary: 'Add a forum topic (its message_thread_id) to a channel',
        params: channelParamsSchema,
        body: topicInputSchema,
        response: { 201: topicSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.createTopic(actorOf(request), request.params.id, request.body)),
  );
  app.put(
    '/channels/:id/topics/:topic_id',
    {
      config: { permission: 'channels:write' },
      schema: {
        tags,
        summary: 'Change a topic; fields left out keep their values',
        params: topicParamsSchema,
        body: topicUpdateSchema,
        response: { 200: topicSchema },
      },
    },
    (request) =>
      service.updateTopic(actorOf(request), request.params.id, request.params.topic_id, request.body),
  );
  app.delete(
    '/channels/:id/topics/:topic_id',
    {
      config: { permission: 'channels:write' },
      schema: {
        tags,
        summary: 'Delete a topic; refused (409) while templates use it',
        params: topicParamsSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await service.removeTopic(actorOf(request), request.params.id, request.params.topic_id);
      return { ok: true as const };
    },
  );
};
