import {
  llmErrorsSchema,
  llmFeatureUsageSchema,
  llmRangeQuerySchema,
  llmTopChatsSchema,
  llmTopQuerySchema,
  llmTopUsersSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * Who and what spends, and how calls fail (docs/operators/metrics.md, "Usage by feature, chat and user");
 * metrics:read.
 */
export const llmDimensionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['metrics'];
  const config = { permission: 'metrics:read' } as const;
  const dimensions = app.services.llmDimensions;

  app.get(
    '/metrics/llm/features',
    {
      config,
      schema: {
        tags,
        summary: 'Cost, tokens, requests and failures by feature (and provider and model) over from..to',
        querystring: llmRangeQuerySchema,
        response: { 200: llmFeatureUsageSchema },
      },
    },
    (request) => dimensions.features(request.query),
  );
  app.get(
    '/metrics/llm/top-chats',
    {
      config,
      schema: {
        tags,
        summary: 'The chats that cost most over the UTC days from..to touches, and the rest as other',
        querystring: llmTopQuerySchema,
        response: { 200: llmTopChatsSchema },
      },
    },
    (request) => dimensions.topChats(request.query),
  );
  app.get(
    '/metrics/llm/top-users',
    {
      config,
      schema: {
        tags,
        summary: 'The users that cost most over the UTC days from..to touches, and the rest as other',
        querystring: llmTopQuerySchema,
        response: { 200: llmTopUsersSchema },
      },
    },
    (request) => dimensions.topUsers(request.query),
  );
  app.get(
    '/metrics/llm/errors',
    {
      config,
      schema: {
        tags,
        summary: 'Error rate by provider and model, and failed calls by error type, over from..to',
        querystring: llmRangeQuerySchema,
        response: { 200: llmErrorsSchema },
      },
    },
    (request) => dimensions.errors(request.query),
  );
};
