import fc from 'fast-check';

/** The parts of JSON Schema (as @fastify/swagger writes OpenAPI 3.1 from the zod contract) read here. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  default?: unknown;
}

export type Components = Record<string, JsonSchema>;

/**
 * Values that mostly satisfy a schema, so that a request gets past the first check and a hostile value put
 * into it reaches the code behind (a body of random garbage would only ever meet the validator).
 */
export function validish(
  schema: JsonSchema | undefined,
  components: Components,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 1 });
  if (schema.$ref) {
    const name = schema.$ref.split('/').at(-1)!;
    return validish(components[name], components, depth + 1);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((c) => validish(c, components, depth + 1)));
  if (schema.allOf?.[0]) return validish(schema.allOf[0], components, depth + 1);
  if (Array.isArray(schema.type)) {
    return fc.oneof(...schema.type.map((type) => validish({ ...schema, type }, components, depth + 1)));
  }
  switch (schema.type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const shape = Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, validish(value, components, depth + 1)]),
      );
      const record = fc.record(shape, { requiredKeys: (schema.required ?? []).filter((k) => k in shape) });
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        const extra = fc.dictionary(
          fc.string({ minLength: 1, maxLength: 8 }),
          validish(schema.additionalProperties, components, depth + 1),
          { maxKeys: 3 },
        );
        return fc.tuple(record, extra).map(([known, more]) => ({ ...more, ...known }));
      }
      return record;
    }
    case 'array':
      return fc.array(validish(schema.items, components, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
      });
    case 'string':
      return validString(schema);
    case 'integer': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
      const max =
        schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 100);
      return fc.integer({ min: Math.max(min, -1e9), max: Math.min(Math.max(max, min), 1e9) });
    }
    case 'number': {
      const min = schema.minimum ?? schema.exclusiveMinimum ?? 0;
      const max = schema.maximum ?? schema.exclusiveMaximum ?? 1000;
      return fc.double({ min, max: Math.max(min, Math.min(max, 1e9)), noNaN: true, noDefaultInfinity: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'email') return fc.constantFrom('fuzz@example.test', 'o.p@example.org');
  if (schema.format === 'date-time') {
    // Mostly instants near now (what a client sends), sometimes the calendar's edges. Never within seconds
    // of now: whether such an instant is past or future when the request arrives (an API key's expiry)
    // would depend on how busy the machine is, and both databases must be asked the same.
    return fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .integer({ min: -3600_000, max: 60_000 })
          .filter((offset) => Math.abs(offset) >= 5_000)
          .map((offset) => new Date(Date.now() + offset).toISOString()),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '0001-01-01T00:00:00Z',
          '1969-12-31T23:59:59.999Z',
          '9999-12-31T23:59:59+14:00',
        ),
      },
    );
  }
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 24, 24));
  if (schema.pattern) {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
  }
  return fc.string({
    minLength,
    maxLength,
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_ '),
  });
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every place in a value that can be replaced: [] is the value itself. */
export function pathsOf(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const paths = [prefix];
  if (Array.isArray(value)) value.forEach((item, i) => paths.push(...pathsOf(item, [...prefix, i])));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  }
  return paths;
}

/** A copy of `value` with the value at `path` replaced (or, for `undefined`, removed). */
export function replaceAt(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as Record<string, Json>) }) as Record<
    string | number,
    unknown
  >;
  const next = replaceAt(copy[head!], rest, replacement);
  if (next === undefined) delete copy[head!];
  else copy[head!] = next;
  return copy;
}

/** A copy of `value` with `suffix` appended to every string in it. */
export function taintStrings(value: unknown, suffix: string): unknown {
  if (typeof value === 'string') return value + suffix;
  if (Array.isArray(value)) return value.map((item) => taintStrings(item, suffix));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, taintStrings(item, suffix)]));
  }
  return value;
}
