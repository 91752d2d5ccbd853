import {
  botHealthSchema,
  cacheMetricsSchema,
  feedbackSummaryQuerySchema,
  feedbackSummarySchema,
  geminiUsageQuerySchema,
  geminiUsageSchema,
  integrationMetricsSchema,
  llmUsageQuerySchema,
  llmUsageSchema,
  marketDataStatusSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Spec section 7, the metric calls; all need metrics:read. */
export const metricsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['metrics'];
  const config = { permission: 'metrics:read' } as const;
  const metrics = app.services.metrics;

  app.get(
    '/metrics/bot-health',
    {
      config,
      schema: {
        tags,
        summary: 'The bot as its latest heartbeat reports it, and its errors of the last 24 hours',
        response: { 200: botHealthSchema },
      },
    },
    () => metrics.botHealth(),
  );
  app.get(
    '/metrics/llm-usage',
    {
      config,
      schema: {
        tags,
        summary: 'Tokens and cost per day (in LUMI_TIMEZONE) and provider, and totals, over `days` days',
        querystring: llmUsageQuerySchema,
        response: { 200: llmUsageSchema },
      },
    },
    (request) => metrics.llmUsage(request.query.days),
  );
  app.get(
    '/metrics/feedback',
    {
      config,
      schema: {
        tags,
        summary:
          'Feedback on the bot’s messages (feedback events) over `days` days, per template, feature or configuration revision',
        querystring: feedbackSummaryQuerySchema,
        response: { 200: feedbackSummarySchema },
      },
    },
    (request) => app.services.feedback.summary(request.query.by, request.query.days),
  );
  app.get(
    '/metrics/cache',
    {
      config,
      schema: {
        tags,
        summary: 'Cache hit rate and response times over the last 24 hours',
        response: { 200: cacheMetricsSchema },
      },
    },
    () => metrics.cacheMetrics(),
  );
  app.get(
    '/metrics/market-data',
    {
      config,
      schema: {
        tags,
        summary: 'Freshness of the market data feed from its latest report',
        response: { 200: marketDataStatusSchema },
      },
    },
    () => metrics.marketData(),
  );
  app.get(
    '/metrics/gemini-usage',
    {
      config,
      schema: {
        tags,
        summary:
          "Gemini calls (provider 'gemini' or a model named gemini…) over 24, 48 or 168 hours, hour by hour",
        querystring: geminiUsageQuerySchema,
        response: { 200: geminiUsageSchema },
      },
    },
    (request) => metrics.geminiUsage(request.query.hours),
  );
  app.get(
    '/metrics/integrations',
    {
      config,
      schema: {
        tags,
        summary: 'Calls to external services over the last 24 hours, with their success rate in percent',
        response: { 200: integrationMetricsSchema },
      },
    },
    () => metrics.integrations(),
  );
};
