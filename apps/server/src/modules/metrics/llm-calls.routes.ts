import {
  llmCallContentSchema,
  llmCallDetailSchema,
  llmCallParamsSchema,
  llmCallsExportQuerySchema,
  llmCallsQuerySchema,
  llmCallsSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/auth.js';
import { sendDownload } from '../../plugins/download.js';
import { routeOptions } from '../../plugins/route-options.js';

/**
 * The calls behind the figures (docs/operators/metrics.md, "Calls"); metrics:read, as the usage panels
 * whose figures they make up.
 */
export const llmCallsRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = routeOptions(['metrics'], 'metrics:read');
  // A permission of its own: the text people sent the bot (docs/operators/metrics.md, "Content of calls").
  const readContent = routeOptions(['metrics'], 'llm:content:read');
  const calls = app.services.llmCalls;

  app.get(
    '/metrics/llm/calls',
    read({
      summary: 'The LLM calls of from..to matching the filters, newest first, a page at a time',
      description:
        'Filters: provider, model, feature (or no_feature=true), chat_id, user_id, error_type (failures ' +
        'of that type; "unknown" for failures reported without one), failed, min_latency_ms, ' +
        'min_cost_usd. Pass next_cursor as cursor for the next page; limit up to 200. total counts the ' +
        'matches up to 10,000 (total_is_lower_bound beyond). Filters other than a chat, a user and the ' +
        'failures are applied to at most 10,000 calls per page and counted among at most 20,000: a page ' +
        'may then hold fewer calls, with searched_to and a next_cursor that searches on.',
      querystring: llmCallsQuerySchema,
      response: llmCallsSchema,
    }),
    (request) => calls.list(request.query),
  );
  app.get(
    '/metrics/llm/calls.csv',
    read({
      summary: 'The matching calls as CSV, newest first, at most 100,000, streamed; audited as an export',
      querystring: llmCallsExportQuerySchema,
    }),
    async (request, reply) => {
      const file = await calls.export(
        actorOf(request),
        request.query,
        request.log,
        request.method !== 'HEAD',
      );
      return sendDownload(reply, file);
    },
  );
  app.get(
    '/metrics/llm/calls/:id',
    read({
      summary: 'One LLM call with everything Lumi keeps of it: ids, trace and span, the key that sent it',
      params: llmCallParamsSchema,
      response: llmCallDetailSchema,
    }),
    (request) => calls.get(request.params.id),
  );
  app.get(
    '/metrics/llm/calls/:id/content',
    readContent({
      summary: "A call's prompt and completion, when its API key captured content; every view is audited",
      params: llmCallParamsSchema,
      response: llmCallContentSchema,
    }),
    async (request, reply) => {
      const content = await calls.content(actorOf(request), request.params.id);
      return reply.header('cache-control', 'no-store').send(content);
    },
  );
};
