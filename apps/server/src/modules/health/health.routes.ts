import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Liveness',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    () => ({ status: 'ok' as const }),
  );
  app.get(
    '/ready',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Readiness: 200 when the database answers, 503 otherwise',
        response: { 200: z.object({ status: z.literal('ready'), database: z.enum(['sqlite', 'postgres']) }) },
      },
    },
    async (request) => {
      try {
        await sql`select 1`.execute(app.db);
        return { status: 'ready' as const, database: app.dialect };
      } catch (error) {
        request.log.warn({ err: error }, 'database not reachable');
        throw new AppError(503, 'service_unavailable', 'The database is not reachable');
      }
    },
  );
};
