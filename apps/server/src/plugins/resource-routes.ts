import { idParamSchema, okResponseSchema } from '@lumi/contract';
import type { FastifyReply, FastifyRequest, FastifyTypeProviderDefault, HTTPMethods } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';
import type { Actor } from '../modules/audit/audit.service.js';
import { actorOf } from './auth.js';
import type { Described, RouteOptions, RouteSchema } from './route-options.js';

/** A request whose path, query and body the route's schemas have validated. */
type Validated<Params, Query = unknown, Body = unknown> = FastifyRequest<{
  Params: Params;
  Querystring: Query;
  Body: Body;
}>;

type Output<Schema> = Schema extends ZodType ? z.output<Schema> : undefined;

/**
 * Compiles only where the service's method takes what the route validated and gives what the route answers;
 * otherwise the route lacks a property that names the mismatch (then pass a handler of the route's own).
 */
type Fits<Service, Name extends string, Wanted> = Service extends { [K in Name]: Wanted }
  ? unknown
  : { [K in `service.${Name} does not fit this route`]: never };

/** What a delete answers: `{ok: true}`, or 204 with no body. */
const DELETED = {
  ok: okResponseSchema,
  'no-content': { 204: z.null().describe('Deleted') },
} as const;

interface Resource<
  Service,
  Item extends ZodType,
  CollectionParams extends ZodType | undefined,
  ItemParams extends ZodType<{ id: number }>,
> {
  /** The collection's path: GET lists it, POST adds to it. */
  path: string;
  /** The collection path's parameters, where it has any (a parent's key). */
  params?: CollectionParams;
  /** An item's path and its parameters: `${path}/:id` and idParamSchema unless they say otherwise. */
  itemPath?: string;
  itemParams?: ItemParams;
  /** What reading, creating and changing an item answer. */
  item: Item;
  /**
   * What a route given no handler calls: get(id), create(actor, values), update(actor, id, changes) and
   * remove(actor, id[, version]).
   */
  service?: Service;
  /** The options (routeOptions) of listing and reading, and of creating, changing and deleting. */
  read: RouteOptions;
  write: RouteOptions;
}

/**
 * The list, get, create, update and delete routes of a resource, declared alike everywhere: a create
 * answers 201 with what it made; a delete answers `{ok: true}` or 204, and hands `?version=` on where it
 * takes one (optimistic concurrency). A route given no handler calls the resource's service by the usual
 * signatures (Resource.service). Each route is registered when its function is called, so a route file keeps
 * its routes, and the OpenAPI document its paths, in the order it lists them, with the resource's other
 * routes in between as usual.
 */
export function resourceRoutes<
  Item extends ZodType,
  ItemParams extends ZodType<{ id: number }> = typeof idParamSchema,
  CollectionParams extends ZodType | undefined = undefined,
  Service = undefined,
>(
  app: Parameters<FastifyPluginAsyncZod>[0],
  resource: Resource<Service, Item, CollectionParams, ItemParams>,
) {
  const { path, params, item, itemPath = `${path}/:id`, itemParams = idParamSchema } = resource;
  type OnCollection<Body = unknown> = Validated<Output<CollectionParams>, unknown, Body>;
  type OnItem<Query = unknown, Body = unknown> = Validated<z.output<ItemParams>, Query, Body>;
  /** What the service's calls read of a request to an item. */
  type ById<Query = unknown> = Validated<{ id: number }, Query>;
  type Answer<Response extends ZodType = Item> = Promise<z.output<Response>>;

  // The signatures below tie schemas, handlers and service together; here the service is called untyped,
  // and the routes are registered without the zod type provider, whose types cannot follow schemas that are
  // type parameters.
  const service = resource.service as Record<string, (...args: unknown[]) => Promise<unknown>> | undefined;
  const call = (method: 'get' | 'create' | 'update' | 'remove', ...args: unknown[]) => {
    const run = service?.[method];
    if (!run) throw new Error(`${path}: neither a handler nor a service with ${method}`);
    return run.call(service, ...args);
  };
  const routes = app.withTypeProvider<FastifyTypeProviderDefault>();
  const declare = <Request>(
    method: HTTPMethods,
    url: string,
    options: RouteOptions,
    { summary, description, params, querystring, body, response }: RouteSchema,
    handler: (request: Request, reply: FastifyReply) => unknown,
  ) => {
    // In the order route files write them; parts a route does not have are left out, not declared undefined
    // (Fastify warns of those).
    const parts = Object.entries({ description, params, querystring, body, response });
    const schema = { summary, ...Object.fromEntries(parts.filter(([, part]) => part !== undefined)) };
    routes.route({
      method,
      url,
      ...options(schema),
      handler: (request, reply) => handler(request as Request, reply),
    });
  };
  type Handler = (request: never) => Promise<unknown>;
  /** The route's own handler, or else `usual`, which calls the service by the usual signature. */
  const handlerOr = <Request>(handler: Handler | undefined, usual: (request: Request) => Promise<unknown>) =>
    (handler ?? usual) as (request: Request) => Promise<unknown>;

  function list<Response extends ZodType, Query extends ZodType | undefined = undefined>(
    route: Described & { querystring?: Query; response: Response },
    handler: (request: Validated<Output<CollectionParams>, Output<Query>>) => Answer<Response>,
  ) {
    declare('GET', path, resource.read, { ...route, params }, handler);
  }

  function get(route: Described & Fits<Service, 'get', (id: number) => Answer>): void;
  function get(route: Described, handler: (request: OnItem) => Answer): void;
  function get(route: Described, handler?: Handler) {
    const run = handlerOr(handler, (request: ById) => call('get', request.params.id));
    declare('GET', itemPath, resource.read, { ...route, params: itemParams, response: item }, run);
  }

  function create<Body extends ZodType, Response extends ZodType = Item>(
    route: Described & { body: Body; response?: Response } & Fits<
        Service,
        'create',
        (actor: Actor, values: z.output<Body>) => Answer<Response>
      >,
  ): void;
  function create<Body extends ZodType, Response extends ZodType = Item>(
    route: Described & { body: Body; response?: Response },
    handler: (request: OnCollection<z.output<Body>>) => Answer<Response>,
  ): void;
  function create(
    { response = item, ...route }: Described & { body: ZodType; response?: ZodType },
    handler?: Handler,
  ) {
    const run = handlerOr(handler, (request: FastifyRequest) =>
      call('create', actorOf(request), request.body),
    );
    const schema = { ...route, params, response: { 201: response } };
    declare('POST', path, resource.write, schema, async (request: FastifyRequest, reply) =>
      reply.status(201).send(await run(request)),
    );
  }

  function update<Body extends ZodType>(
    route: Described & { body: Body } & Fits<
        Service,
        'update',
        (actor: Actor, id: number, changes: z.output<Body>) => Answer
      >,
  ): void;
  function update<Body extends ZodType>(
    route: Described & { body: Body },
    handler: (request: OnItem<unknown, z.output<Body>>) => Answer,
  ): void;
  function update(route: Described & { body: ZodType }, handler?: Handler) {
    const run = handlerOr(handler, (request: ById) =>
      call('update', actorOf(request), request.params.id, request.body),
    );
    declare('PUT', itemPath, resource.write, { ...route, params: itemParams, response: item }, run);
  }

  type Removal<Query> = Described & { querystring?: Query; answer?: keyof typeof DELETED };
  function remove<Query extends ZodType<{ version: number }> | undefined = undefined>(
    route: Removal<Query> &
      Fits<
        Service,
        'remove',
        Query extends ZodType
          ? (actor: Actor, id: number, version: number) => Promise<void>
          : (actor: Actor, id: number) => Promise<void>
      >,
  ): void;
  function remove<Query extends ZodType | undefined = undefined>(
    route: Removal<Query>,
    handler: (request: OnItem<Output<Query>>) => Promise<void>,
  ): void;
  function remove({ answer = 'ok', ...route }: Removal<ZodType>, handler?: Handler) {
    const version = (request: ById<{ version: number }>) =>
      route.querystring ? [request.query.version] : [];
    const run = handlerOr(handler, (request: ById<{ version: number }>) =>
      call('remove', actorOf(request), request.params.id, ...version(request)),
    );
    const schema = { ...route, params: itemParams, response: DELETED[answer] };
    declare('DELETE', itemPath, resource.write, schema, async (request: ById<{ version: number }>, reply) => {
      await run(request);
      return answer === 'ok' ? { ok: true as const } : reply.status(204).send(null);
    });
  }

  return { list, get, create, update, remove };
}
