import { findUnsafeText } from '@lumi/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifySchemaCompiler } from 'fastify/types/schema.js';
import fp from 'fastify-plugin';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { jsonNestingExceeds } from '../lib/json-depth.js';
import { ValidationError } from '../lib/errors.js';

/** Deeper than any request needs (config content included), far below what would exhaust a stack. */
export const MAX_JSON_DEPTH = 64;

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
 * Hardening issue, items 2 and 4: what every request body and field must satisfy before a route sees it.
 * JSON bodies nested deeper than MAX_JSON_DEPTH are refused before they are parsed.
 */
export const requestInputPlugin = fp(async (app: FastifyInstance) => {
  app.setValidatorCompiler(guardedValidatorCompiler);

  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (jsonNestingExceeds(text, MAX_JSON_DEPTH)) {
      const detail = `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep; send a flatter structure`;
      done(new ValidationError([{ path: '', message: detail }], detail), undefined);
      return;
    }
    parseJson(request, text, done);
  });
});
