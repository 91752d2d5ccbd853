import type { FastifyRequest } from 'fastify';
import type { IngestSource } from './ingest-batch.js';

/**
 * Who sent a bot's batch: the API key the route's guard admitted (plugins/auth.ts) and whether it captures
 * content (docs/operators/metrics.md, "Content of calls").
 */
export function sourceOf(request: FastifyRequest): IngestSource {
  return { apiKeyId: request.apiKey?.id ?? null, capture: request.apiKey?.capture ?? null };
}
