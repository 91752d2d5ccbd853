import type { FastifyContextConfig, FastifySchema } from 'fastify';
import { z, type ZodType } from 'zod';
import type { RoutePermission } from './auth.js';

/** What the API documentation says of a route: its OpenAPI summary, and a description where it has one. */
export interface Described {
  summary: string;
  description?: string;
}

/**
 * A route's OpenAPI schema without its tags: its summary (and description), its parts, and what it answers:
 * the schema of its 200 answer, or each status with its schema.
 */
export type RouteSchema = Described &
  Pick<FastifySchema, 'params' | 'querystring' | 'body'> & { response?: ZodType | Record<number, ZodType> };

/** The schema as Fastify takes it: the area's tags, the route's parts, and its answers by status. */
type FastifyRouteSchema<Schema extends RouteSchema> = Omit<Schema, 'response'> & {
  tags: string[];
  response: Schema['response'] extends ZodType ? { 200: Schema['response'] } : Schema['response'];
};

/**
 * The options of a route (engineering guide, "Thin routes" and "Permissions are data"): the permission it
 * needs, more config where it has any (the apiKeyScope that lets a bot's key in, the pending actions it
 * allows), and its schema under the area's OpenAPI tags. `const read = routeOptions(['metrics'],
 * 'metrics:read')` makes `app.get('/path', read({ summary: '…', response: answerSchema }), handler)`.
 */
export function routeOptions(
  tags: readonly string[],
  permission: RoutePermission,
  more?: Omit<FastifyContextConfig, 'permission'>,
) {
  return <Schema extends RouteSchema>({ response, ...parts }: Schema) => {
    const answers = response instanceof z.ZodType ? { 200: response } : response;
    const schema = { tags: [...tags], ...parts, ...(answers && { response: answers }) };
    return { config: { permission, ...more }, schema: schema as FastifyRouteSchema<Schema> };
  };
}

export type RouteOptions = ReturnType<typeof routeOptions>;
