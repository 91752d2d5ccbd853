import { roleInputSchema, roleListResponseSchema, roleSchema } from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { resourceRoutes } from '../../plugins/resource-routes.js';
import { routeOptions } from '../../plugins/route-options.js';

export const rolesRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = routeOptions(['roles'], 'users:read');
  const write = routeOptions(['roles'], 'users:write');
  const service = app.services.roles;
  const roles = resourceRoutes(app, { path: '/roles', item: roleSchema, service, read, write });

  roles.list({ summary: 'All roles with their permissions', response: roleListResponseSchema }, () =>
    service.list(),
  );
  roles.create({ summary: 'Create a custom role', body: roleInputSchema });
  roles.update({ summary: 'Change a custom role', body: roleInputSchema });
  roles.remove({ summary: 'Delete a custom role that no user has' });
};
