import { Readable } from 'node:stream';
import { auditExportQuerySchema, auditListResponseSchema, auditQuerySchema } from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/auth.js';

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

  app.get(
    '/admin/audit-logs/export',
    {
      config: { permission: 'admin:audit:read' },
      schema: {
        tags: ['audit'],
        summary: 'Every audit log entry the filters match, newest first, streamed as CSV or JSON Lines',
        querystring: auditExportQuerySchema,
      },
    },
    async (request, reply) => {
      const file = await app.services.audit.export(
        actorOf(request),
        request.query,
        request.log,
        request.method !== 'HEAD',
      );
      // Bytes, not objects: the stream holds one page's text and asks for the next only once the client
      // has taken it in, so a slow download slows the reading instead of filling memory.
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .send(Readable.from(file.chunks, { objectMode: false }));
    },
  );
};
