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
import { routeOptions } from '../../plugins/route-options.js';

/** Spec section 7, the metric calls; all need metrics:read. */
export const metricsRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = routeOptions(['metrics'], 'metrics:read');
  const metrics = app.services.metrics;

  app.get(
    '/metrics/bot-health',
    read({
      summary: 'The bot as its latest heartbeat reports it, and its errors of the last 24 hours',
      response: botHealthSchema,
    }),
    () => metrics.botHealth(),
  );
  app.get(
    '/metrics/llm-usage',
    read({
      summary: 'Tokens and cost per day (in LUMI_TIMEZONE) and provider, and totals, over `days` days',
      querystring: llmUsageQuerySchema,
      response: llmUsageSchema,
    }),
    (request) => metrics.llmUsage(request.query.days),
  );
  app.get(
    '/metrics/feedback',
    read({
      summary:
        'Feedback on the bot’s messages (feedback events) over `days` days, per template, feature or configuration revision',
      querystring: feedbackSummaryQuerySchema,
      response: feedbackSummarySchema,
    }),
    (request) => app.services.feedback.summary(request.query.by, request.query.days),
  );
  app.get(
    '/metrics/cache',
    read({
      summary: 'Cache hit rate and response times over the last 24 hours',
      response: cacheMetricsSchema,
    }),
    () => metrics.cacheMetrics(),
  );
  app.get(
    '/metrics/market-data',
    read({
      summary: 'Freshness of the market data feed from its latest report',
      response: marketDataStatusSchema,
    }),
    () => metrics.marketData(),
  );
  app.get(
    '/metrics/gemini-usage',
    read({
      summary:
        "Gemini calls (provider 'gemini' or a model named gemini…) over 24, 48 or 168 hours, hour by hour",
      querystring: geminiUsageQuerySchema,
      response: geminiUsageSchema,
    }),
    (request) => metrics.geminiUsage(request.query.hours),
  );
  app.get(
    '/metrics/integrations',
    read({
      summary: 'Calls to external services over the last 24 hours, with their success rate in percent',
      response: integrationMetricsSchema,
    }),
    () => metrics.integrations(),
  );
};
