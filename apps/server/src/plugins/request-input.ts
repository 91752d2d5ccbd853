import { findUnsafeText } from '@lumi/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifySchemaCompiler } from 'fastify/types/schema.js';
import fp from 'fastify-plugin';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { jsonShapeProblem } from '../lib/json-shape.js';
import { AppError, ValidationError } from '../lib/errors.js';

/**
 * The contract's validation, then its text rule (control characters and lone surrogates, `findUnsafeText`)
 * on everything that validated, so no field of any route can carry a NUL to the database. A route whose
 * items are judged one by one (ingestion) takes the plain `validatorCompiler` instead and applies the rule
 * to each item itself.
 */
const guardedValidatorCompiler: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = validatorCompiler(route) as (data: unknown) => { value?: unknown; error?: Error };
  return (data: unknown) => {
    const result = validate(data);
    if (result.error) return result;
    const unsafe = findUnsafeText(result.value);
    if (!unsafe) return result;
    const detail = unsafe.path ? `${unsafe.path}: ${unsafe.message}` : unsafe.message;
    return { error: new ValidationError([unsafe], detail) };
  };
};

/**
 * A body at least this large is read in three turns of the event loop (its shape, the parse, the
 * validation), each a stretch of its own of a few milliseconds per 100 KB.
 */
const LARGE_BODY_BYTES = 64 * 1024;

const isLarge = (request: FastifyRequest) =>
  Number(request.headers['content-length'] ?? 0) >= LARGE_BODY_BYTES;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * What every request body and field must satisfy before a route sees it (docs/operators/security.md,
 * "Bounded work"): a JSON body deeper or wider than the contract's JSON_LIMITS is refused before it is
 * parsed, and a large body gives the event loop back between the stages of reading it.
 */
export const requestInputPlugin = fp(async (app: FastifyInstance) => {
  app.setValidatorCompiler(guardedValidatorCompiler);
  app.addHook('preValidation', async (request) => {
    if (isLarge(request)) await nextTurn();
  });

  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    const problem = jsonShapeProblem(text);
    if (problem) {
      done(new ValidationError([{ path: '', message: problem }], problem), undefined);
      return;
    }
    // Fastify's parser refuses __proto__ and constructor.prototype keys (prototype poisoning) as JSON
    // that is not valid; when the text is valid JSON, that is why, and the client is told so.
    const parsed: typeof done = (error, value) => {
      if (error && isJson(text)) done(new AppError(400, 'bad_request', FORBIDDEN_KEY), undefined);
      else done(error, value);
    };
    if (isLarge(request)) setImmediate(() => parseJson(request, text, parsed));
    else parseJson(request, text, parsed);
  });
});

const FORBIDDEN_KEY =
  'The request body has a key named __proto__, or constructor with prototype in it: rename it';

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
