import { auditListResponseSchema, auditQuerySchema } from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/audit-logs',
    {
      config: { permission: 'admin:audit:read' },
      schema: {
        tags: ['audit'],
        summary: 'Recent audit log entries, newest first, with filters and cursor pagination',
        querystring: auditQuerySchema,
        response: { 200: auditListResponseSchema },
      },
    },
    (request) => app.services.audit.list(request.query),
  );
};
