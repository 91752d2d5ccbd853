import {
  llmErrorsSchema,
  llmFeatureUsageSchema,
  llmRangeQuerySchema,
  llmTopChatsSchema,
  llmTopQuerySchema,
  llmTopUsersSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routeOptions } from '../../plugins/route-options.js';

/**
 * Who and what spends, and how calls fail (docs/operators/metrics.md, "Usage by feature, chat and user");
 * metrics:read.
 */
export const llmDimensionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = routeOptions(['metrics'], 'metrics:read');
  const dimensions = app.services.llmDimensions;

  app.get(
    '/metrics/llm/features',
    read({
      summary: 'Cost, tokens, requests and failures by feature (and provider and model) over from..to',
      querystring: llmRangeQuerySchema,
      response: llmFeatureUsageSchema,
    }),
    (request) => dimensions.features(request.query),
  );
  app.get(
    '/metrics/llm/top-chats',
    read({
      summary: 'The chats that cost most over the UTC days from..to touches, and the rest as other',
      querystring: llmTopQuerySchema,
      response: llmTopChatsSchema,
    }),
    (request) => dimensions.topChats(request.query),
  );
  app.get(
    '/metrics/llm/top-users',
    read({
      summary: 'The users that cost most over the UTC days from..to touches, and the rest as other',
      querystring: llmTopQuerySchema,
      response: llmTopUsersSchema,
    }),
    (request) => dimensions.topUsers(request.query),
  );
  app.get(
    '/metrics/llm/errors',
    read({
      summary: 'Error rate by provider and model, and failed calls by error type, over from..to',
      querystring: llmRangeQuerySchema,
      response: llmErrorsSchema,
    }),
    (request) => dimensions.errors(request.query),
  );
};
