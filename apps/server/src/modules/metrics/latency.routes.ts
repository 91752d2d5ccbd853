import { integrationLatencySchema, latencyQuerySchema, llmLatencySchema } from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * Latency percentiles from the hourly histograms (docs/operators/metrics.md, "Latency percentiles");
 * metrics:read, as the other metric calls.
 */
export const latencyRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['metrics'];
  const config = { permission: 'metrics:read' } as const;
  const latency = app.services.latency;

  app.get(
    '/metrics/llm/latency',
    {
      config,
      schema: {
        tags,
        summary:
          'p50/p95/p99 latency (ms) and requests per provider and model, per hour or day and over the range',
        querystring: latencyQuerySchema,
        response: { 200: llmLatencySchema },
      },
    },
    (request) => latency.llmLatency(request.query),
  );
  app.get(
    '/metrics/integrations/latency',
    {
      config,
      schema: {
        tags,
        summary: 'p50/p95/p99 latency (ms) and calls per integration, per hour or day and over the range',
        querystring: latencyQuerySchema,
        response: { 200: integrationLatencySchema },
      },
    },
    (request) => latency.integrationLatency(request.query),
  );
};
