import { integrationLatencySchema, latencyQuerySchema, llmLatencySchema } from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routeOptions } from '../../plugins/route-options.js';

/**
 * Latency percentiles from the hourly histograms (docs/operators/metrics.md, "Latency percentiles");
 * metrics:read, as the other metric calls.
 */
export const latencyRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = routeOptions(['metrics'], 'metrics:read');
  const latency = app.services.latency;

  app.get(
    '/metrics/llm/latency',
    read({
      summary:
        'p50/p95/p99 latency (ms) and requests per provider and model, per hour or day and over the range',
      querystring: latencyQuerySchema,
      response: llmLatencySchema,
    }),
    (request) => latency.llmLatency(request.query),
  );
  app.get(
    '/metrics/integrations/latency',
    read({
      summary: 'p50/p95/p99 latency (ms) and calls per integration, per hour or day and over the range',
      querystring: latencyQuerySchema,
      response: integrationLatencySchema,
    }),
    (request) => latency.integrationLatency(request.query),
  );
};
