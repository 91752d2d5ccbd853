import {
  accessRuleInputSchema,
  accessRuleListQuerySchema,
  accessRuleListResponseSchema,
  accessRuleSchema,
  allowanceRequestSchema,
  allowanceSchema,
  botLimitsSnapshotSchema,
  botUsageRequestSchema,
  botUsageResponseSchema,
  idParamSchema,
  limitDenialsQuerySchema,
  limitDenialsResponseSchema,
  limitInputSchema,
  limitListQuerySchema,
  limitListResponseSchema,
  limitPreviewSchema,
  limitSchema,
  okResponseSchema,
  subjectLimitsSchema,
  subjectParamsSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/auth.js';
import { resourceRoutes } from '../../plugins/resource-routes.js';
import { routeOptions } from '../../plugins/route-options.js';

/**
 * Limits, bans and allowlists (docs/operators/limits.md): read with metrics:read, changed with
 * limits:write; the allowance and the SDK's copy for bot keys with allowance:read
 * (docs/bot-developers/limits.md).
 */
export const limitsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { limits, allowance } = app.services;
  const read = routeOptions(['limits'], 'metrics:read');
  const write = routeOptions(['limits'], 'limits:write');
  const bot = routeOptions(['bot'], 'api-key', { apiKeyScope: 'allowance:read' });

  const limit = resourceRoutes(app, { path: '/limits', item: limitSchema, service: limits, read, write });
  limit.list(
    {
      summary:
        'A page of the limits, newest first, each with its usage now (for each chat or user, the five nearest it) and its denials',
      querystring: limitListQuerySchema,
      response: limitListResponseSchema,
    },
    (request) => limits.list(request.query),
  );
  limit.create({
    summary: 'Create a limit (409 when the subject has one of that metric and window already)',
    body: limitInputSchema,
  });
  app.post(
    '/limits/preview',
    write({
      summary: 'Who is over, or near (80 %), a limit being written, in its current window',
      body: limitInputSchema,
      response: limitPreviewSchema,
    }),
    (request) => limits.preview(request.body),
  );

  app.get(
    '/limits/access-rules',
    read({
      summary: 'A page of the bans and allowlist entries, newest first, expired ones included',
      querystring: accessRuleListQuerySchema,
      response: accessRuleListResponseSchema,
    }),
    (request) => limits.listRules(request.query),
  );
  app.post(
    '/limits/access-rules',
    write({
      summary:
        'Ban a chat or user, or exempt it from every limit (409 when it has an active entry already; an expired one is replaced)',
      body: accessRuleInputSchema,
      response: { 201: accessRuleSchema },
    }),
    async (request, reply) => reply.status(201).send(await limits.createRule(actorOf(request), request.body)),
  );
  app.delete(
    '/limits/access-rules/:id',
    write({ summary: 'Delete a ban or allowlist entry', params: idParamSchema, response: okResponseSchema }),
    async (request) => {
      await limits.removeRule(actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );
  app.get(
    '/limits/denials',
    read({
      summary: 'Denied calls, newest first, with the number in the last 24 hours that the filters match',
      querystring: limitDenialsQuerySchema,
      response: limitDenialsResponseSchema,
    }),
    (request) => limits.denials(request.query),
  );
  app.get(
    '/limits/subjects/:kind/:subject',
    read({
      summary: 'A chat’s or user’s ban or allowlist entry and the limits on it, with its usage now',
      params: subjectParamsSchema,
      response: subjectLimitsSchema,
    }),
    (request) => limits.subject(request.params.kind, request.params.subject),
  );

  limit.get({ summary: 'One limit with its usage now' });
  limit.update({ summary: 'Replace a limit’s settings', body: limitInputSchema });
  limit.remove({ summary: 'Delete a limit (its denials stay listed)' });

  app.post(
    '/bot/allowance',
    bot({
      summary: 'May this chat, user and feature make an LLM call now? Counts the call when allowed',
      description:
        'With several instances on one PostgreSQL, an instance that has just started (or lost its ' +
        'connection to the database) waits to be let in beside the others before it decides: after 5 s ' +
        'a check answers 503 with Retry-After: 1 (docs/operators/limits.md, "What counts").',
      body: allowanceRequestSchema,
      response: allowanceSchema,
    }),
    (request) => allowance.decide(request.body),
  );
  app.get(
    '/bot/limits',
    bot({
      summary: 'Every limit and active ban or allowlist entry, for the SDK’s local checks',
      response: botLimitsSnapshotSchema,
    }),
    () => limits.snapshot(),
  );
  app.post(
    '/bot/allowance/usage',
    bot({
      summary: 'The usage now of every limit on the chats, users and features named',
      body: botUsageRequestSchema,
      response: botUsageResponseSchema,
    }),
    (request) => limits.botUsage(request.body),
  );
};
