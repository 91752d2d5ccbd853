import {
  alertEvaluationSchema,
  alertHistoryQuerySchema,
  alertHistoryResponseSchema,
  alertNotificationListQuerySchema,
  alertNotificationListResponseSchema,
  alertNotificationSchema,
  alertPreviewRequestSchema,
  alertRuleInputSchema,
  alertRuleListResponseSchema,
  alertRuleSchema,
  alertRuleUpdateSchema,
  alertSummarySchema,
  contactPointCreatedSchema,
  contactPointInputSchema,
  contactPointListResponseSchema,
  contactPointSchema,
  contactPointUpdateSchema,
  idParamSchema,
  silenceInputSchema,
  silenceListResponseSchema,
  silenceSchema,
  silenceUpdateSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../plugins/auth.js';

const params = idParamSchema;
const noContent = { 204: z.null().describe('Deleted') };

/** Alerts (docs/bot-developers/alerts.md): read with alerts:read, change with alerts:write. */
export const alertsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { rules, contactPoints, silences, history } = app.services.alerts;
  const read = { permission: 'alerts:read' } as const;
  const write = { permission: 'alerts:write' } as const;

  // Rules
  {
    const tags = ['alert rules'];
    app.get(
      '/alerts/rules',
      {
        config: read,
        schema: {
          tags,
          summary: 'Alert rules with their state and last value',
          response: { 200: alertRuleListResponseSchema },
        },
      },
      async () => ({ rules: await rules.list() }),
    );

    app.post(
      '/alerts/rules',
      {
        config: write,
        schema: {
          tags,
          summary: 'Create an alert rule (422 naming contact points that do not exist)',
          body: alertRuleInputSchema,
          response: { 201: alertRuleSchema },
        },
      },
      async (request, reply) => reply.status(201).send(await rules.create(actorOf(request), request.body)),
    );

    app.post(
      '/alerts/rules/preview',
      {
        config: write,
        schema: {
          tags,
          summary: 'What a condition would evaluate to now (the editor’s live line)',
          body: alertPreviewRequestSchema,
          response: { 200: alertEvaluationSchema },
        },
      },
      (request) => rules.preview(request.body.condition),
    );

    app.get(
      '/alerts/rules/:id',
      {
        config: read,
        schema: {
          tags,
          summary: 'One alert rule with its state, last evaluation and whether a silence covers it',
          params,
          response: { 200: alertRuleSchema },
        },
      },
      (request) => rules.get(request.params.id),
    );

    app.put(
      '/alerts/rules/:id',
      {
        config: write,
        schema: {
          tags,
          summary:
            'Change an alert rule; fields left out keep their values (takes effect at the next evaluation)',
          params,
          body: alertRuleUpdateSchema,
          response: { 200: alertRuleSchema },
        },
      },
      (request) => rules.update(actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/alerts/rules/:id',
      {
        config: write,
        schema: { tags, summary: 'Delete an alert rule (its history stays)', params, response: noContent },
      },
      async (request, reply) => {
        await rules.remove(actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/alerts/summary',
      {
        config: read,
        schema: {
          tags,
          summary: 'Firing and pending alerts, for the Overview',
          response: { 200: alertSummarySchema },
        },
      },
      () => rules.summary(),
    );
  }

  // Contact points
  {
    const tags = ['alert contact points'];
    app.get(
      '/alerts/contact-points',
      {
        config: read,
        schema: { tags, summary: 'Contact points', response: { 200: contactPointListResponseSchema } },
      },
      async () => ({ contact_points: await contactPoints.list() }),
    );

    app.post(
      '/alerts/contact-points',
      {
        config: write,
        schema: {
          tags,
          summary:
            'Create a contact point; a webhook’s answer carries its signing secret, shown only this once',
          body: contactPointInputSchema,
          response: { 201: contactPointCreatedSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await contactPoints.create(actorOf(request), request.body)),
    );

    app.get(
      '/alerts/contact-points/:id',
      {
        config: read,
        schema: { tags, summary: 'One contact point', params, response: { 200: contactPointSchema } },
      },
      (request) => contactPoints.get(request.params.id),
    );

    app.put(
      '/alerts/contact-points/:id',
      {
        config: write,
        schema: {
          tags,
          summary: 'Change a contact point; the type stays and fields left out keep their values',
          params,
          body: contactPointUpdateSchema,
          response: { 200: contactPointSchema },
        },
      },
      (request) => contactPoints.update(actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/alerts/contact-points/:id',
      {
        config: write,
        schema: {
          tags,
          summary: 'Delete a contact point (409 naming the rules that notify it)',
          params,
          response: noContent,
        },
      },
      async (request, reply) => {
        await contactPoints.remove(actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/alerts/contact-points/:id/test',
      {
        config: write,
        schema: {
          tags,
          summary: 'Send a test notification: a webhook is tried once now, a Telegram message is queued',
          params,
          response: { 200: alertNotificationSchema },
        },
      },
      (request) => contactPoints.test(request.params.id),
    );

    app.get(
      '/alerts/contact-points/:id/notifications',
      {
        config: read,
        schema: {
          tags,
          summary: 'The contact point’s notifications, newest first, with their tries',
          params,
          querystring: alertNotificationListQuerySchema,
          response: { 200: alertNotificationListResponseSchema },
        },
      },
      (request) => contactPoints.notifications(request.params.id, request.query),
    );
  }

  // Silences
  {
    const tags = ['alert silences'];
    app.get(
      '/alerts/silences',
      {
        config: read,
        schema: { tags, summary: 'Silences with their status', response: { 200: silenceListResponseSchema } },
      },
      async () => ({ silences: await silences.list() }),
    );

    app.post(
      '/alerts/silences',
      {
        config: write,
        schema: {
          tags,
          summary:
            'Mute one rule, a severity or every rule, once or in a recurring window (422 when the end has passed)',
          body: silenceInputSchema,
          response: { 201: silenceSchema },
        },
      },
      async (request, reply) => reply.status(201).send(await silences.create(actorOf(request), request.body)),
    );

    app.get(
      '/alerts/silences/:id',
      { config: read, schema: { tags, summary: 'One silence', params, response: { 200: silenceSchema } } },
      (request) => silences.get(request.params.id),
    );

    app.put(
      '/alerts/silences/:id',
      {
        config: write,
        schema: {
          tags,
          summary:
            'Replace a silence, e.g. with a later end; `ends_at: "now"` ends an active once silence now (409 once it has ended)',
          params,
          body: silenceUpdateSchema,
          response: { 200: silenceSchema },
        },
      },
      (request) => silences.update(actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/alerts/silences/:id',
      { config: write, schema: { tags, summary: 'End and delete a silence', params, response: noContent } },
      async (request, reply) => {
        await silences.remove(actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  }

  app.get(
    '/alerts/history',
    {
      config: read,
      schema: {
        tags: ['alert history'],
        summary: 'State changes of the rules, newest first (`state` is the state entered)',
        querystring: alertHistoryQuerySchema,
        response: { 200: alertHistoryResponseSchema },
      },
    },
    (request) => history.list(request.query),
  );
};
