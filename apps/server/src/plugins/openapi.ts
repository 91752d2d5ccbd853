import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** Where the browsable API documentation lives; its pages are not API routes. */
export const DOCS_PREFIX = '/api/docs';

/** OpenAPI 3 generated from the route schemas: /api/openapi.json, browsable at /api/docs. */
export const openapiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Lumi Admin API',
        version: '1.0.0',
        description:
          'The API behind the Lumi Admin console. Authenticate with `POST /api/auth/login` and send the access ' +
          'token as `Authorization: Bearer <token>`. Errors have the shape `{detail, code, errors?, request_id}`.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    // The documentation page ships its own inline bootstrap script; allow exactly that page to run it.
    // Its policy must still forbid framing like every other response, and must not upgrade requests to
    // https, which would break the page on a plain-http install.
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace(/frame-ancestors [^;]*/, "frame-ancestors 'none'")
        .replace(/\s*upgrade-insecure-requests;?/, ''),
    uiConfig: { deepLinking: true },
  });
  app.get('/api/openapi.json', { config: { permission: 'public' }, schema: { hide: true } }, () =>
    app.swagger(),
  );
});
