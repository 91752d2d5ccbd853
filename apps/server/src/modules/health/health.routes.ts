import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pingDatabase } from '../../db/signals.js';
import { AppError } from '../../lib/errors.js';
import { routeOptions } from '../../plugins/route-options.js';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const open = routeOptions(['health'], 'public');
  app.get('/health', open({ summary: 'Liveness', response: z.object({ status: z.literal('ok') }) }), () => ({
    status: 'ok' as const,
  }));
  app.get(
    '/ready',
    open({
      summary:
        'Readiness: 200 when the database answers; 503 when it does not or the instance is shutting down',
      description:
        'For a load balancer: an instance answers 503 from the moment it starts shutting down, while it ' +
        'finishes the requests in flight, so no new traffic is sent to it. `allowance` says where the ' +
        'allowance reads usage: `memory` (once the month is loaded: SQLite, and PostgreSQL while this is the ' +
        'only instance on the database), `loading` (while it is loaded: checks read the database meanwhile) ' +
        'or `database` (PostgreSQL beside other instances). `allowance_counts` says ' +
        'where the hard request limits are counted: `memory` (SQLite, and PostgreSQL while this is the only ' +
        'instance on the database), `database` (PostgreSQL beside other instances) or `waiting` ' +
        '(PostgreSQL, until this instance is let in beside the others: checks wait meanwhile).',
      response: z.object({
        status: z.literal('ready'),
        database: z.enum(['sqlite', 'postgres']),
        allowance: z.enum(['memory', 'loading', 'database']),
        allowance_counts: z.enum(['memory', 'database', 'waiting']),
      }),
    }),
    async (request) => {
      if (app.readiness.shuttingDown) {
        throw new AppError(
          503,
          'service_unavailable',
          'This instance is shutting down; use another instance',
        );
      }
      try {
        await pingDatabase(app.db);
        return {
          status: 'ready' as const,
          database: app.dialect,
          allowance: app.services.allowance.usageSource,
          allowance_counts: app.services.allowance.countsWhere,
        };
      } catch (error) {
        request.log.warn({ err: error }, 'database not reachable');
        throw new AppError(503, 'service_unavailable', 'The database is not reachable');
      }
    },
  );
};
