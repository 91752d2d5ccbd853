import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode, ErrorResponse, FieldError } from '@lumi/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { describeViolation, type Violation } from '../db/constraints.js';
import { AppError, ConflictError, RefusedDeliveryError } from '../lib/errors.js';
import { setResponseHeaders } from './response-headers.js';

function send(
  reply: FastifyReply,
  request: FastifyRequest,
  status: number,
  code: ErrorCode,
  detail: string,
  errors?: FieldError[],
  extra?: { current?: unknown; delivery_id?: number },
) {
  const body: ErrorResponse & { current?: unknown } = { detail, code, request_id: String(request.id) };
  if (errors) body.errors = errors;
  if (extra?.current !== undefined) body.current = extra.current;
  if (extra?.delivery_id !== undefined) body.delivery_id = extra.delivery_id;
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

function fieldPath(instancePath: string): string {
  return instancePath.replace(/^\//, '').replaceAll('/', '.');
}

/** Fastify's own 4xx errors, given a detail a person can act on. */
const FRAMEWORK_ERRORS: Record<string, { code: ErrorCode; detail: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', detail: 'The request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    detail: 'Send the request body as JSON (Content-Type: application/json)',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'bad_request',
    detail: 'The request body is empty; send a JSON object or omit the Content-Type header',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'bad_request', detail: 'The request body is not valid JSON' },
};

/**
 * The unique or foreign key a database refused a write for, read from the driver's error, or undefined
 * for any other error. PostgreSQL (pg) gives the SQLSTATE (23505 unique_violation, 23503
 * foreign_key_violation) and the constraint's name; SQLite (better-sqlite3) gives SQLITE_CONSTRAINT_UNIQUE
 * or _PRIMARYKEY with the table and columns in its message, and SQLITE_CONSTRAINT_FOREIGNKEY (or, for an
 * ON DELETE RESTRICT, _TRIGGER) with no name. Which side of a foreign key the write was on, PostgreSQL's
 * message says (in English, its default); failing that, a DELETE is the side that deletes.
 */
function violationOf(error: unknown, method: string): Violation | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, constraint, message } = error as Record<string, unknown>;
  const text = typeof message === 'string' ? message : '';
  const name = typeof constraint === 'string' ? constraint : undefined;
  const side = (): 'in_use' | 'gone' => {
    if (text.startsWith('update or delete on table')) return 'in_use';
    if (text.startsWith('insert or update on table')) return 'gone';
    return method === 'DELETE' ? 'in_use' : 'gone';
  };
  switch (code) {
    case '23505':
      return { kind: 'unique', constraint: name };
    case '23503':
      return { kind: 'foreign_key', constraint: name, side: side() };
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY':
      return sqliteUniqueKey(text);
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
      return { kind: 'foreign_key', side: side() };
    case 'SQLITE_CONSTRAINT_TRIGGER':
      // ON DELETE RESTRICT is a trigger to SQLite; it fires only for the row being deleted.
      return text === 'FOREIGN KEY constraint failed' ? { kind: 'foreign_key', side: 'in_use' } : undefined;
    default:
      return undefined;
  }
}

/** "UNIQUE constraint failed: config_items.domain, config_items.name_key" (or "...: index 'name'"). */
function sqliteUniqueKey(message: string): Violation {
  const failed = message.slice(message.indexOf('failed: ') + 'failed: '.length);
  const index = /^index '(.+)'$/.exec(failed);
  if (index) return { kind: 'unique', constraint: index[1] };
  const columns = failed.split(', ').map((column) => column.split('.'));
  const table = columns[0]?.[0];
  if (!table || columns.some((parts) => parts.length !== 2 || parts[0] !== table)) return { kind: 'unique' };
  return { kind: 'unique', table, columns: columns.map((parts) => parts[1]!) };
}

/**
 * Fastify's `frameworkErrors`: a URL whose percent-encoding is not UTF-8 is refused before any route is
 * found (so before any hook runs), and gets the one error shape and the usual headers too.
 */
export function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  setResponseHeaders(request, reply);
  const detail =
    error.code === 'FST_ERR_BAD_URL'
      ? 'The URL is not valid: its percent-encoded characters must be UTF-8'
      : 'The request could not be routed';
  return send(reply, request, 400, 'bad_request', detail);
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses (headers, the URL among them, past
 * its 16 KB; a request that does not arrive in time; bytes that are not HTTP) never becomes a request, so
 * the answer is written to the socket here, in the one error shape with a request id of its own (`nextId`,
 * the app's), before the connection is closed.
 */
export const clientError = (nextId: (request: { headers: IncomingHttpHeaders }) => string) =>
  function (this: FastifyInstance, error: Error & { code?: string }, socket: Duplex) {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, code, detail]: [number, ErrorCode, string] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'headers_too_large', 'The request’s headers, its URL among them, are over 16 KB: send less']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'request_timeout', 'The request did not arrive in time: send it again']
          : [400, 'bad_request', 'The request is not valid HTTP/1.1'];
    const requestId = nextId({ headers: {} });
    this.log.debug({ err: error, requestId }, 'a request the HTTP parser refused');
    const body = JSON.stringify({ detail, code, request_id: requestId } satisfies ErrorResponse);
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\nx-content-type-options: nosniff\r\n` +
          `x-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };

/** One error shape for every 4xx and 5xx: {detail, code, errors?, request_id}. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) void reply.headers(error.headers);
      return send(
        reply,
        request,
        error.statusCode,
        error.code,
        error.message,
        error.errors,
        error instanceof ConflictError
          ? { current: error.current }
          : error instanceof RefusedDeliveryError
            ? { delivery_id: error.deliveryId }
            : undefined,
      );
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((v) => ({
        path: fieldPath(v.instancePath),
        message:
          // The whole body has the wrong type (no body, a string, an array): the path is '/'.
          fieldPath(v.instancePath) === '' && v.keyword === 'invalid_type'
            ? isJsonType(request.headers['content-type'])
              ? 'Send a JSON object'
              : 'Send a JSON object, with Content-Type: application/json'
            : (v.message ?? 'Invalid value'),
      }));
      const first = errors[0];
      const detail =
        first && first.path
          ? `${first.path}: ${first.message}`
          : (first?.message ?? 'The request is not valid');
      return send(reply, request, 422, 'validation_failed', detail, errors);
    }
    // A write that lost a race the service's own check could not see: another request took the name, or
    // deleted (or began to use) the row it points to, between the check and the write (engineering guide 18).
    const violation = violationOf(error, request.method);
    if (violation) {
      const { detail, known } = describeViolation(violation, { params: request.params, body: request.body });
      const log = { err: error, violation };
      if (known) request.log.info(log, 'write refused by a database constraint');
      else request.log.warn(log, 'write refused by a constraint db/constraints.ts does not describe');
      return send(reply, request, 409, 'conflict', detail);
    }
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) return send(reply, request, error.statusCode ?? 400, known.code, known.detail);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const code: ErrorCode = error.statusCode === 429 ? 'too_many_requests' : 'bad_request';
      return send(reply, request, error.statusCode, code, error.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(
      reply,
      request,
      500,
      'internal_error',
      `Something went wrong on the server. Try again; if it keeps happening, report request id ${request.id}.`,
    );
  });

  app.setNotFoundHandler((request, reply) =>
    send(reply, request, 404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}`),
  );
});

const isJsonType = (type: string | undefined) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(type ?? '');
