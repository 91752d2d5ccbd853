import { auditExportQuerySchema, auditListResponseSchema, auditQuerySchema } from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendDownload } from '../../plugins/download.js';
import { routeOptions } from '../../plugins/route-options.js';
import { actorOf } from '../../plugins/auth.js';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = routeOptions(['audit'], 'admin:audit:read');
  app.get(
    '/admin/audit-logs',
    read({
      summary: 'Recent audit log entries, newest first, with filters and cursor pagination',
      querystring: auditQuerySchema,
      response: auditListResponseSchema,
    }),
    (request) => app.services.audit.list(request.query),
  );

  app.get(
    '/admin/audit-logs/export',
    read({
      summary: 'Every audit log entry the filters match, newest first, streamed as CSV or JSON Lines',
      querystring: auditExportQuerySchema,
    }),
    async (request, reply) => {
      const file = await app.services.audit.export(
        actorOf(request),
        request.query,
        request.log,
        request.method !== 'HEAD',
      );
      return sendDownload(reply, file);
    },
  );
};
